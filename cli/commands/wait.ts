import {
  JournalError,
  PollTimeoutError,
  type PollOptions,
  type VideoTask,
} from '../../src/client/index.ts';
import { DEFAULT_POLL_TIMEOUT_MS } from '../../src/client/poll-schedule.ts';
import { FileJournal, resumeJournal, type ResumeSummary } from '../../src/node/index.ts';
import type { Command } from '../command.ts';
import { parseFlags, UsageError } from '../options.ts';
import { explain } from '../explain.ts';
import { checkJournalToRead } from '../journal-path.ts';
import { ProgressLine, describeTask, isFinal, printErr, printOut } from '../output.ts';
import { SERVICE_FLAGS, SERVICE_HELP, clientFrom } from '../service-options.ts';
import { StopSignals } from '../signals.ts';
import {
  documentedPolling,
  POLL_FLAGS,
  pollHelp,
  pollOptions,
  POLLING_SUMMARY,
} from '../poll-options.ts';

const HELP = `Usage: videotask wait TASK_ID [options]
       videotask wait --journal FILE [options]

Polls until completed or failed with the documented loop (§8: ${POLLING_SUMMARY};
\`unknown\` slows it down, §3). With --journal, picks up every unfinished task a journal knows
(after a restart, §8) and never resubmits anything.

Exit status: 0 completed; 1 failed (or an error); 2 bad usage, or a journal that is missing, a
directory or damaged; 3 timed out; 4 (--journal) every task followed finished, but some submissions
could not be confirmed and must be checked by hand; 130 / 143 stopped by SIGINT / SIGTERM (the task
goes on). With several tasks the first that applies of 1, 3, 4 wins.

Options:
  --journal FILE        wait for every unfinished task of this journal (written by \`videotask submit --journal\`)
${pollHelp(DEFAULT_POLL_TIMEOUT_MS / 1000)}
  --json                print the final task as JSON (single task)
${SERVICE_HELP}`;

export const waitCommand: Command = {
  name: 'wait',
  async run(argv) {
    const { values, positionals } = parse(argv);
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    if ((positionals.length === 1) === (values.journal !== undefined) || positionals.length > 1)
      throw new UsageError('give one task ID or --journal FILE (not both)');
    const poll = pollOptions(values, documentedPolling(DEFAULT_POLL_TIMEOUT_MS));
    const client = clientFrom(values);
    if (values.journal !== undefined) await checkJournalToRead(values.journal);
    const stop = new StopSignals();
    const line = new ProgressLine();
    try {
      if (values.journal !== undefined)
        return await waitJournal(values.journal, client, { ...poll, signal: stop.signal }, line);
      const taskId = positionals[0]!;
      const { task } = await client.poll(taskId, {
        ...poll,
        signal: stop.signal,
        // The final state is the result, printed once below (not also as progress).
        onUpdate: (t) => (isFinal(t) ? undefined : line.update(describeTask(t))),
      });
      line.clear();
      printOut(values.json ? JSON.stringify(task, null, 2) : describeTask(task));
      return task.status === 'completed' ? 0 : 1;
    } catch (error) {
      line.done();
      if (stop.stoppedBy !== undefined) {
        console.error(
          `videotask wait: stopped by ${stop.stoppedBy}; the task goes on. Wait again with the same command.`,
        );
        return stop.exitCode;
      }
      if (error instanceof PollTimeoutError) {
        printErr(
          `videotask wait: ${error.message}\n  → the task may still finish: wait ` +
            `again later with the same command. Do not resubmit it (§3).`,
        );
        return 3;
      }
      printErr(`videotask wait: ${explain(error, client, positionals[0])}`);
      return error instanceof JournalError ? 2 : 1;
    } finally {
      stop.close();
    }
  },
};

async function waitJournal(
  path: string,
  client: ReturnType<typeof clientFrom>,
  poll: PollOptions,
  line: ProgressLine,
): Promise<number> {
  const journal = new FileJournal(path);
  try {
    const summary = await resumeJournal(
      journal,
      (id, signal) => client.getVideo(id, { signal }),
      poll,
      {
        onUpdate: (_record, task: VideoTask) =>
          isFinal(task) ? undefined : line.update(describeTask(task)),
      },
    );
    line.clear();
    if (summary.tornTail)
      printErr(
        `note: the last line of ${path} was cut off by a crash and was ignored; nothing before it was lost.`,
      );
    for (const r of summary.results) {
      if (r.outcome === 'completed' || r.outcome === 'failed') printOut(describeTask(r.task));
      else if (r.outcome === 'timed-out')
        printOut(`${r.taskId} still ${r.lastStatus ?? 'running'}: timed out (wait again later)`);
      else if (r.outcome === 'error')
        printOut(`${r.taskId} error: ${explain(r.error, client, r.taskId)}`);
    }
    for (const check of summary.needsCheck) printErr(`check by hand: ${check.message}`);
    console.error(
      `${summary.results.length} task(s) followed, ${summary.settled} already ` +
        `settled, ${summary.needsCheck.length} to check by hand.`,
    );
    return journalExitCode(summary);
  } finally {
    await journal.close();
  }
}

/** 1 a task failed or could not be followed, 3 one timed out, 4 submissions to check by hand, else 0. */
function journalExitCode(summary: ResumeSummary): number {
  if (summary.results.some((r) => r.outcome === 'failed' || r.outcome === 'error')) return 1;
  if (summary.results.some((r) => r.outcome === 'timed-out')) return 3;
  if (summary.needsCheck.length > 0) return 4;
  return 0;
}

function parse(argv: readonly string[]) {
  return parseFlags(
    argv,
    {
      ...SERVICE_FLAGS,
      ...POLL_FLAGS,
      journal: { type: 'string' },
      json: { type: 'boolean' },
    },
    true,
  );
}

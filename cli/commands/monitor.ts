import { maskKey } from '../../src/redaction/redactor.ts';
import { realSleep } from '../../src/client/sleep.ts';
import type { Command } from '../command.ts';
import { checkJournalToRead } from '../journal-path.ts';
import { monitorRound } from '../monitor-round.ts';
import { parseFlags, secondsOption, UsageError } from '../options.ts';
import { SERVICE_FLAGS, SERVICE_HELP, clientFrom } from '../service-options.ts';
import { printErr, printOut } from '../output.ts';
import { StopSignals } from '../signals.ts';

const DEFAULT_INTERVAL_S = 60;

const HELP = `Usage: videotask monitor [options]

Day-to-day monitoring that creates no video task (§9): authentication and the catalog (GET /v1/models),
the visibility of the expected models, and one status query of each task a journal still has in
progress. Prints one line per check on stdout, "OK|FAIL <check> <detail>"; never submits, never polls
to completion, never writes the journal.

Options:
  --expect-model M      a model /v1/models must list for this key (repeatable)
  --journal FILE        query each task this journal has in progress once (written by \`videotask submit --journal\`)
  --once                one round, then exit (for cron)
  --interval S          seconds between rounds (default ${DEFAULT_INTERVAL_S}); runs until SIGINT/SIGTERM
${SERVICE_HELP}
  -h, --help            show this help

Exit status (--once, or the last round when stopped; the rule of every command that judges a
deployment): 1 a check failed; else 2 bad usage, the key refused (an input error), the service
unreachable or nothing at the base URL answering like the service (check its path prefix); else 0;
130 / 143 stopped by SIGINT / SIGTERM before the first round ended.`;

export const monitorCommand: Command = {
  name: 'monitor',
  async run(argv) {
    const { values } = parseFlags(argv, {
      ...SERVICE_FLAGS,
      'expect-model': { type: 'string', multiple: true },
      journal: { type: 'string' },
      interval: { type: 'string' },
      once: { type: 'boolean' },
    });
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    if (values.once === true && values.interval !== undefined)
      throw new UsageError('give --once or --interval S, not both');
    const intervalMs = secondsOption('--interval', values.interval) ?? DEFAULT_INTERVAL_S * 1000;
    const expectModels = [...new Set(values['expect-model'] ?? [])];
    if (expectModels.some((m) => m.trim() === ''))
      throw new UsageError('--expect-model must not be empty');
    if (values.journal !== undefined) await checkJournalToRead(values.journal);
    const client = clientFrom({ ...values, tool: 'monitor' });
    const apiKey = (values['api-key'] ?? process.env['VIDEOTASK_API_KEY'])!;
    const options = { expectModels, journal: values.journal, secrets: [apiKey] };

    if (values.once === true) return printRound(await monitorRound(client, options));

    const stop = new StopSignals();
    console.error(
      `videotask monitor: checking ${client.baseUrl} with ${maskKey(apiKey)} ` +
        `every ${intervalMs / 1000} s; stop with Ctrl-C (SIGINT) or SIGTERM`,
    );
    let last: number | undefined;
    try {
      for (let round = 1; !stop.signal.aborted; round++) {
        console.error(`round ${round} at ${new Date().toISOString()}`);
        try {
          last = printRound(await monitorRound(client, { ...options, signal: stop.signal }));
        } catch (error) {
          if (stop.signal.aborted) break;
          throw error;
        }
        // Only a stop ends the wait early; the loop's condition then ends the rounds.
        await realSleep(intervalMs, stop.signal).catch(() => undefined);
      }
    } finally {
      stop.close();
    }
    const when =
      last === undefined
        ? ' before the first round ended'
        : `; the last round's status was ${last}`;
    console.error(`videotask monitor: stopped${when}`);
    return last ?? stop.exitCode;
  },
};

function printRound(result: Awaited<ReturnType<typeof monitorRound>>): number {
  for (const line of result.lines)
    printOut(`${line.ok ? 'OK' : 'FAIL'} ${line.check} ${line.detail}`);
  const failed = result.lines.filter((l) => !l.ok).length;
  console.error(`${result.lines.length - failed} OK, ${failed} FAIL`);
  if (result.why !== undefined) printErr(`videotask monitor: ${result.why}`);
  return result.status;
}

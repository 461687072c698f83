import type { TaskWrapper } from '../../src/client/index.ts';
import { nothingHereAfter } from '../service-here.ts';
import type { Command } from '../command.ts';
import { oneTaskId, parseFlags } from '../options.ts';
import { explain } from '../explain.ts';
import { SERVICE_FLAGS, SERVICE_HELP, clientFrom } from '../service-options.ts';
import { describeTask, printErr, printOut } from '../output.ts';

const HELP = `Usage: videotask status TASK_ID [--wrapper] [--json]

Shows a task's state once: the OpenAI form (GET /v1/videos/{id}, §4.2) or, with --wrapper, the generic
wrapper (GET /v1/video/generations/{id}, §4.3).

Exit status: 0 the task was shown; 1 the query failed (the task is missing or not yours, …); 2 bad
usage, or nothing at the base URL answers like the service (check its path prefix).

Options:
  --wrapper             query the generic wrapper instead
  --json                print the answer as JSON
${SERVICE_HELP}`;

export const statusCommand: Command = {
  name: 'status',
  async run(argv) {
    const { values, positionals } = parse(argv);
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const taskId = oneTaskId(positionals, 'videotask status TASK_ID');
    const client = clientFrom(values);
    try {
      if (values.wrapper) {
        const wrapper = await client.getWrapper(taskId);
        printOut(values.json ? JSON.stringify(wrapper, null, 2) : describeWrapper(taskId, wrapper));
      } else {
        const task = await client.getVideo(taskId);
        printOut(values.json ? JSON.stringify(task, null, 2) : describeTask(task));
      }
      return 0;
    } catch (error) {
      const key = values['api-key'] ?? process.env['VIDEOTASK_API_KEY'];
      const elsewhere = await nothingHereAfter(error, client.baseUrl, key);
      if (elsewhere !== undefined) {
        printErr(`videotask status: ${elsewhere}`);
        return 2;
      }
      printErr(`videotask status: ${explain(error, client, taskId)}`);
      return 1;
    }
  },
};

/** One line for a person: `task_…  IN_PROGRESS  50%  result …  reason: …`. */
function describeWrapper(taskId: string, wrapper: TaskWrapper): string {
  const d = wrapper.data;
  const parts = [
    taskId,
    d?.status,
    d?.progress,
    d?.result_url === undefined ? '' : `result ${d.result_url}`,
    d?.fail_reason ? `reason: ${d.fail_reason}` : '',
  ];
  return parts.filter(Boolean).join('  ');
}

function parse(argv: readonly string[]) {
  return parseFlags(
    argv,
    { ...SERVICE_FLAGS, wrapper: { type: 'boolean' }, json: { type: 'boolean' } },
    true,
  );
}

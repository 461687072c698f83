import { existsSync } from 'node:fs';
import type { Command } from '../commands.ts';
import { parseFlags } from '../options.ts';
import { ProgressLine } from '../progress-line.ts';
import { SERVICE_FLAGS, SERVICE_HELP, clientFrom, explain } from '../service-options.ts';
import { UsageError } from '../usage-error.ts';

const HELP = `Usage: videotask download TASK_ID -o FILE [--force]

Downloads a completed task's video through the service (GET /v1/videos/{id}/content, §4.4), following
redirects. It is written to a temporary file beside FILE and renamed at the end, so a failed download
leaves no partial file; the sha256 is printed at the end.

Options:
  -o, --output FILE     where to write the video (required)
  --force               replace FILE if it exists
${SERVICE_HELP}`;

export const downloadCommand: Command = {
  name: 'download',
  async run(argv) {
    const { values, positionals } = parse(argv);
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    if (positionals.length !== 1)
      throw new UsageError('give exactly one task ID: videotask download TASK_ID -o FILE');
    if (values.output === undefined || values.output === '')
      throw new UsageError('-o FILE is required');
    if (existsSync(values.output) && values.force !== true)
      throw new UsageError(`${values.output} exists: pass --force to replace it`);
    const client = clientFrom(values);
    const line = new ProgressLine();
    try {
      const result = await client.downloadContent(positionals[0]!, {
        to: values.output,
        onProgress: (received, total) =>
          line.update(
            total === undefined
              ? `${kib(received)} received`
              : `${kib(received)} of ${kib(total)} (${Math.floor((received / total) * 100)}%)`,
          ),
      });
      line.done();
      console.log(`${result.sha256}  ${result.path ?? values.output}`);
      console.error(`${result.bytes} bytes, ${result.contentType}`);
      return 0;
    } catch (error) {
      line.done();
      console.error(`videotask download: ${explain(error, client)}`);
      return 1;
    }
  },
};

const kib = (bytes: number) => (bytes < 10_240 ? `${bytes} B` : `${(bytes / 1024).toFixed(0)} KiB`);

function parse(argv: readonly string[]) {
  return parseFlags(
    argv,
    { ...SERVICE_FLAGS, output: { type: 'string', short: 'o' }, force: { type: 'boolean' } },
    true,
  );
}

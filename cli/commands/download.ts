import { existsSync } from 'node:fs';
import { DEFAULT_MAX_DOWNLOAD_BYTES } from '../../src/client/index.ts';
import type { Command } from '../commands.ts';
import { explain } from '../explain.ts';
import { numberOption, parseFlags } from '../options.ts';
import { ProgressLine } from '../progress-line.ts';
import { SERVICE_FLAGS, SERVICE_HELP, clientFrom } from '../service-options.ts';
import { printErr, printOut } from '../terminal-output.ts';
import { UsageError } from '../usage-error.ts';

const HELP = `Usage: videotask download TASK_ID -o FILE [--force] [--max-bytes N]

Downloads a completed task's video through the service (GET /v1/videos/{id}/content, §4.4), following
redirects. It is written to a temporary file beside FILE and renamed at the end, so a failed or
interrupted download (Ctrl-C, SIGTERM) leaves no partial file; the sha256 is printed at the end.

Exit status: 0 downloaded; 1 an error (nothing written); 2 bad usage; 130 / 143 stopped by SIGINT /
SIGTERM (nothing written).

Options:
  -o, --output FILE     where to write the video (required)
  --force               replace FILE if it exists
  --max-bytes N         stop, keeping nothing, past N bytes (default ${DEFAULT_MAX_DOWNLOAD_BYTES}, 2 GiB)
${SERVICE_HELP}`;

/** The exit code of a process stopped by a signal, as a shell reports it: 128 + its number. */
const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;
type StopSignal = keyof typeof SIGNAL_EXIT;

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
    const maxBytes = numberOption('--max-bytes', values['max-bytes'], {
      integer: true,
      min: 1,
      max: Number.MAX_SAFE_INTEGER,
    });
    const client = clientFrom(values);
    const line = new ProgressLine();
    // A signal aborts the download, which removes its temporary file, instead of killing the process.
    const stop = new AbortController();
    let stoppedBy: StopSignal | undefined;
    const onSignal = (signal: StopSignal) => {
      stoppedBy ??= signal;
      stop.abort(new Error(`stopped by ${signal}`));
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    try {
      const result = await client.downloadContent(positionals[0]!, {
        to: values.output,
        signal: stop.signal,
        maxBytes,
        onProgress: (received, total) => line.update(progressText(received, total)),
      });
      line.done();
      printOut(`${result.sha256}  ${result.path ?? values.output}`);
      console.error(`${result.bytes} bytes, ${result.contentType}`);
      return 0;
    } catch (error) {
      line.done();
      if (stoppedBy !== undefined) {
        printErr(
          `videotask download: stopped by ${stoppedBy}; nothing was written to ` +
            `${values.output}. Run the same command again to download it.`,
        );
        return SIGNAL_EXIT[stoppedBy];
      }
      printErr(`videotask download: ${explain(error, client)}`);
      return 1;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  },
};

function progressText(received: number, total: number | undefined): string {
  if (total === undefined) return `${kib(received)} received`;
  return `${kib(received)} of ${kib(total)} (${Math.floor((received / total) * 100)}%)`;
}

const kib = (bytes: number) => (bytes < 10_240 ? `${bytes} B` : `${(bytes / 1024).toFixed(0)} KiB`);

function parse(argv: readonly string[]) {
  return parseFlags(
    argv,
    {
      ...SERVICE_FLAGS,
      output: { type: 'string', short: 'o' },
      force: { type: 'boolean' },
      'max-bytes': { type: 'string' },
    },
    true,
  );
}

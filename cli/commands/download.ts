import { DEFAULT_MAX_DOWNLOAD_BYTES, downloadContent } from '../../src/node/index.ts';
import type { Command } from '../commands.ts';
import { checkDownloadTarget, STDOUT } from '../download-target.ts';
import { explain } from '../explain.ts';
import { numberOption, parseFlags } from '../options.ts';
import { ProgressLine } from '../progress-line.ts';
import { SERVICE_FLAGS, SERVICE_HELP, clientFrom } from '../service-options.ts';
import { printErr, printOut } from '../terminal-output.ts';
import { UsageError } from '../usage-error.ts';

const HELP = `Usage: videotask download TASK_ID -o FILE [--force] [--max-bytes N]
       videotask download TASK_ID -o - > video.mp4

Downloads a completed task's video through the service (GET /v1/videos/{id}/content, §4.4), following
redirects. It is written to a temporary file beside FILE and renamed at the end, so a failed or
interrupted download (Ctrl-C, SIGTERM) leaves no partial file; the sha256 is printed at the end. FILE
is checked before anything is downloaded: not a directory, its directory writable. With -o - the video
goes to standard output (not a terminal) and "sha256  -" to standard error; a download that fails
there may have written part of the video already: check the exit status.

Exit status: 0 downloaded; 1 an error (nothing written); 2 bad usage (FILE a directory, existing
without --force, or in a missing or read-only directory); 130 / 143 stopped by SIGINT / SIGTERM
(nothing written).

Options:
  -o, --output FILE     where to write the video (required); - for standard output
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
    const output = values.output;
    if (output === undefined || output === '')
      throw new UsageError('-o FILE is required (or -o - for standard output)');
    const taskId = positionals[0]!;
    await checkDownloadTarget(output, { force: values.force === true, taskId });
    const toStdout = output === STDOUT;
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
      const result = await downloadContent(client, taskId, {
        to: toStdout ? process.stdout : output,
        signal: stop.signal,
        maxBytes,
        onProgress: (received, total) => line.update(progressText(received, total)),
      });
      line.done();
      // With -o -, standard output is the video: the summary goes to standard error.
      (toStdout ? printErr : printOut)(`${result.sha256}  ${result.path ?? output}`);
      console.error(`${result.bytes} bytes, ${result.contentType}`);
      return 0;
    } catch (error) {
      line.done();
      if (stoppedBy !== undefined) {
        const kept = toStdout ? '' : `; nothing was written to ${output}`;
        printErr(
          `videotask download: stopped by ${stoppedBy}${kept}. Run the same command ` +
            `again to download it.`,
        );
        return SIGNAL_EXIT[stoppedBy];
      }
      printErr(`videotask download: ${explain(error, client, taskId)}`);
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

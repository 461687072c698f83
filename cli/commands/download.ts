import { DEFAULT_MAX_DOWNLOAD_BYTES, downloadContent } from '../../src/node/index.ts';
import type { Command } from '../command.ts';
import { explain } from '../explain.ts';
import { numberOption, oneTaskId, parseFlags, UsageError } from '../options.ts';
import { printErr, printOut, ProgressLine } from '../output.ts';
import { clientFrom, SERVICE_FLAGS, SERVICE_HELP } from '../service-options.ts';
import { StopSignals } from '../signals.ts';
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';

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

export const downloadCommand: Command = {
  name: 'download',
  async run(argv) {
    const { values, positionals } = parse(argv);
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const taskId = oneTaskId(positionals, 'videotask download TASK_ID -o FILE');
    const output = values.output;
    if (output === undefined || output === '')
      throw new UsageError('-o FILE is required (or -o - for standard output)');
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
    const stop = new StopSignals();
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
      if (stop.stoppedBy !== undefined) {
        const kept = toStdout ? '' : `; nothing was written to ${output}`;
        printErr(
          `videotask download: stopped by ${stop.stoppedBy}${kept}. Run the same command ` +
            `again to download it.`,
        );
        return stop.exitCode;
      }
      printErr(`videotask download: ${explain(error, client, taskId)}`);
      return 1;
    } finally {
      stop.close();
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

/** `-o -`: the video goes to standard output. */
const STDOUT = '-';

/**
 * `download -o FILE`, checked before anything is downloaded: a mistake in the target must not cost a
 * whole download that fails at its last step (the rename). FILE names a file, not a directory (it is
 * replaced by a rename, so a directory, a device or a FIFO never is); it may exist only with
 * `--force`; its directory exists and is writable. `-o -` writes to standard output, unless that is
 * a terminal.
 */
async function checkDownloadTarget(
  path: string,
  options: { force: boolean; taskId: string },
): Promise<void> {
  if (path === STDOUT) {
    if (process.stdout.isTTY === true)
      throw new UsageError(
        '-o - writes the video to standard output, which is a terminal here: ' +
          'redirect it (`> video.mp4`) or pipe it into another program',
      );
    return;
  }
  const example = `-o ${join(path, `${options.taskId}.mp4`)}`;
  if (path.endsWith('/') || path.endsWith(sep))
    throw new UsageError(`-o ${path} names a directory: give the file to write, e.g. ${example}`);
  const target = await statOf(path);
  if (target?.isDirectory() === true)
    throw new UsageError(`-o ${path} is a directory: give the file to write, e.g. ${example}`);
  if (target !== undefined && !target.isFile())
    throw new UsageError(
      `-o ${path} is not a regular file; give the file to write (or -o - for standard output)`,
    );
  if (target !== undefined && !options.force)
    throw new UsageError(`${path} exists: pass --force to replace it`);
  const folder = dirname(resolve(path));
  if ((await statOf(folder))?.isDirectory() !== true)
    throw new UsageError(`-o ${path}: the directory ${folder} does not exist; create it first`);
  try {
    await access(folder, constants.W_OK);
  } catch {
    throw new UsageError(`-o ${path}: the directory ${folder} is not writable`);
  }
}

async function statOf(path: string): Promise<Awaited<ReturnType<typeof stat>> | undefined> {
  try {
    return await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ENOTDIR')
      throw new UsageError(`-o ${path}: a part of the path is not a directory`);
    throw new UsageError(`-o ${path}: ${(error as Error).message}`);
  }
}

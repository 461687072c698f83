import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sampleVideo } from '../../mocks/core/http/media.ts';
import { FAST, taskCliFixture } from '../helpers/task-cli.ts';
import { videotaskCli } from '../helpers/built-cli.ts';

/**
 * Issue 22 ("Day-one friction"), the CLI: `wait` printed its final line twice (as progress and as the
 * result) and its hint said `videotask download ID`; `download -o -` wrote a file named `-`;
 * `download -o DIR` downloaded the whole video before failing at the rename; bare `videotask` printed
 * help and exited 0; `-V` was an unknown command. The bare command and `-V`: cli-day-one.test.ts,
 * in-process.
 */
const SCRIPT = '/usr/bin/script';

const { videotask, submitted, server, dir } = taskCliFixture();

const occurrences = (text: string, part: string) => text.split(part).length - 1;

/** One finished task, waited for once and shared by the tests that only need one to exist. */
let done: Promise<string> | undefined;
function finished(): Promise<string> {
  done ??= (async () => {
    const id = await submitted('video-pro-v1', 'a kite');
    expect((await videotask(['wait', id, ...FAST])).code).toBe(0);
    return id;
  })();
  return done;
}

/** The CLI with stdout as bytes (a video), against the fixture's mock. */
function videotaskBytes(args: string[]): Promise<{ code: number; stdout: Buffer; stderr: string }> {
  const env = {
    ...process.env,
    VIDEOTASK_BASE_URL: server().url,
    VIDEOTASK_API_KEY: 'sk-mock-alice',
  };
  return new Promise((resolve) =>
    execFile(
      process.execPath,
      [videotaskCli(), ...args],
      { env, cwd: dir(), encoding: 'buffer', timeout: 30_000 },
      (error, stdout, stderr) =>
        resolve({
          code: error === null ? 0 : typeof error.code === 'number' ? error.code : 99,
          stdout,
          stderr: stderr.toString('utf8'),
        }),
    ),
  );
}

function fifo(path: string): string {
  execFileSync('mkfifo', [path]);
  return path;
}

/** The number of the mock's latest answer (its request IDs count every request it answers). */
async function requestNumber(): Promise<number> {
  const health = await fetch(`${server().url}/__mock/health`);
  await health.arrayBuffer();
  return Number(health.headers.get('x-oneapi-request-id')!.slice(-8));
}

/** The CLI on a terminal (a pseudo-terminal from util-linux `script`): what a person sees, raw. */
function onTerminal(args: string[]): Promise<{ code: number; screen: string }> {
  const command = [process.execPath, videotaskCli(), ...args].map((a) => `'${a}'`).join(' ');
  const env = {
    ...process.env,
    VIDEOTASK_BASE_URL: server().url,
    VIDEOTASK_API_KEY: 'sk-mock-alice',
  };
  return new Promise((resolve) =>
    execFile(
      SCRIPT,
      ['-qec', command, '/dev/null'],
      { env, cwd: dir(), timeout: 30_000 },
      (error, stdout) =>
        resolve({
          code: error === null ? 0 : typeof error.code === 'number' ? error.code : 99,
          screen: stdout,
        }),
    ),
  );
}

describe('wait', () => {
  it('prints the final line once, in a log, with a hint that names the real task ID', async () => {
    const id = await submitted('video-pro-v1', 'a kite');
    const waited = await videotask(['wait', id, ...FAST]);
    expect(waited.code).toBe(0);
    const everything = waited.stdout + waited.stderr;
    expect(occurrences(everything, `${id} completed 100%`)).toBe(1);
    expect(waited.stdout).toContain(`videotask download ${id} -o ${id}.mp4`);
    expect(everything).not.toMatch(/download ID\b/);
  });

  it('prints the final line once on a terminal too', async () => {
    if (!existsSync(SCRIPT)) return;
    const id = await submitted('video-pro-v1', 'a kite [mock:fail:ContentPolicy]');
    const { code, screen } = await onTerminal(['wait', id, ...FAST]);
    expect(code).toBe(1);
    expect(occurrences(screen, `${id} failed 100%`)).toBe(1);
  });

  it('prints each finished task of a journal once', async () => {
    const journal = join(dir(), 'once.jsonl');
    const ids = [
      await submitted('video-pro-v1', 'a kite', '--journal', journal),
      await submitted('video-pro-v1', 'a storm [mock:fail]', '--journal', journal),
    ];
    const waited = await videotask(['wait', '--journal', journal, ...FAST]);
    const everything = waited.stdout + waited.stderr;
    expect(occurrences(everything, `${ids[0]} completed 100%`)).toBe(1);
    expect(occurrences(everything, `${ids[1]} failed 100%`)).toBe(1);
  });

  it('names the real task ID in the hint of a download that comes too early', async () => {
    const id = await submitted('video-pro-v1', 'a kite [mock:slow]');
    const early = await videotask(['download', id, '-o', join(dir(), 'early.mp4')]);
    expect(early.code).toBe(1);
    expect(early.stderr).toContain(`\`videotask wait ${id}\``);
  });
});

describe('download', () => {
  it('writes the video to standard output with -o -, and the sha256 to standard error', async () => {
    const id = await submitted('video-pro-v1', 'a kite');
    expect((await videotask(['wait', id, ...FAST])).code).toBe(0);
    const out = await videotaskBytes(['download', id, '-o', '-']);
    expect(out.code, out.stderr).toBe(0);
    expect(new Uint8Array(out.stdout)).toEqual(sampleVideo().bytes);
    expect(out.stderr).toContain(`${sampleVideo().sha256}  -`);
    expect(existsSync(join(dir(), '-'))).toBe(false);
  });

  it('refuses -o - when standard output is a terminal', async () => {
    if (!existsSync(SCRIPT)) return;
    const { code, screen } = await onTerminal(['download', 'task_x', '-o', '-']);
    expect(code).toBe(2);
    expect(screen).toMatch(/standard output, which is a terminal here/);
  });

  it.each([
    [
      'a directory',
      (d: string) => d,
      [],
      /is a directory: give the file to write, e\.g\. -o .*\.mp4/,
    ],
    ['a directory, even with --force', (d: string) => d, ['--force'], /is a directory/],
    ['a directory named with a slash', (d: string) => `${d}/new/`, [], /names a directory/],
    [
      'a file in a missing directory',
      (d: string) => join(d, 'missing', 'v.mp4'),
      [],
      /does not exist/,
    ],
    // A FIFO of its own: a rename onto it replaces it (before the fix, as root, `-o /dev/null --force`
    // replaced the machine's /dev/null with the video).
    ['a FIFO', (d: string) => fifo(join(d, 'pipe')), ['--force'], /is not a regular file/],
  ])('fails before downloading when -o is %s (exit 2)', async (what, target, extra, message) => {
    const id = await finished();
    const folder = join(dir(), `target-${what.replaceAll(/\W+/g, '-')}`);
    mkdirSync(folder);
    writeFileSync(join(folder, 'keep.txt'), 'kept');
    const path = target(folder);
    const before = readdirSync(folder).sort();
    const answered = await requestNumber();
    const refused = await videotask(['download', id, '-o', path, ...extra]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(message);
    // Nothing was downloaded: the mock answered no request in between, the folder is as it was.
    expect(await requestNumber()).toBe(answered + 1);
    expect(readdirSync(folder).sort()).toEqual(before);
    if (path.endsWith('pipe')) expect(statSync(path).isFIFO()).toBe(true);
  });
});

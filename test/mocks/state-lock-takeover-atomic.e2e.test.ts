// Issue 24 item 12: taking over a stale state-file lock was "remove it, then create mine": two
// processes that judged the same lock stale in the same millisecond could both remove and create, and
// both held it (17 of 30 trials). A takeover now claims the stale lock under a name of its own, made
// with O_EXCL, checks the lock is still the stale one and replaces it with one atomic rename; a lock
// appears with its content whole (link of a written file), never empty.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { createMockService } from '../../mocks/node/create-mock-service.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const RACER = fileURLToPath(new URL('../fixtures/lock-racer.ts', import.meta.url));
const RACERS = 6;
const TRIALS = 30;
const dir = mkdtempSync(join(tmpdir(), 'videotask-lock-race-'));
const racers: ChildProcessWithoutNullStreams[] = [];
afterAll(() => {
  for (const racer of racers) racer.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** A racer process and the lines it prints, each awaited by the first that wants one. */
function startRacer(): { child: ChildProcessWithoutNullStreams; next: () => Promise<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', RACER], { cwd: REPO });
  racers.push(child);
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  createInterface({ input: child.stdout }).on('line', (line) => {
    const waiter = waiting.shift();
    if (waiter === undefined) lines.push(line);
    else waiter(line);
  });
  child.once('exit', (code) => {
    for (const waiter of waiting.splice(0)) waiter(`exited ${code}: ${stderr}`);
  });
  const next = () =>
    lines.length > 0
      ? Promise.resolve(lines.shift()!)
      : new Promise<string>((resolve) => waiting.push(resolve));
  return { child, next };
}

/** A process ID no process has now (the holder of a stale lock). */
function deadPid(seed: number): number {
  for (let pid = 3_000_000 + seed * 97; ; pid++) {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') return pid;
    }
  }
}

it.runIf(process.platform === 'linux')(
  `gives a stale lock to exactly one of ${RACERS} processes taking it over in the same ` +
    `millisecond, in each of ${TRIALS} trials`,
  async () => {
    const all = Array.from({ length: RACERS }, startRacer);
    for (const racer of all) expect(await racer.next()).toBe('ready');
    const winners: number[] = [];
    const refusals: string[] = [];
    for (let trial = 0; trial < TRIALS; trial++) {
      const file = join(dir, `trial-${trial}.state`);
      writeFileSync(`${file}.lock`, JSON.stringify({ pid: deadPid(trial), host: hostname() }));
      const at = Date.now() + 150;
      for (const racer of all) racer.child.stdin.write(`go ${file} ${at}\n`);
      const results = await Promise.all(all.map((racer) => racer.next()));
      const won = results.filter((line) => line.startsWith('won '));
      refusals.push(...results.filter((line) => !line.startsWith('won ')));
      winners.push(won.length);
      if (won.length > 0) {
        const holder = JSON.parse(readFileSync(`${file}.lock`, 'utf8')) as { pid: number };
        expect(all.map((r) => r.child.pid)).toContain(holder.pid);
      }
      for (const racer of all) racer.child.stdin.write(`end ${file}\n`);
      for (const racer of all) expect(await racer.next()).toBe(`ended ${file}`);
    }
    expect(winners).toEqual(Array(TRIALS).fill(1));
    for (const line of refusals)
      expect(line).toMatch(/in use by another mock( taking it over)? \(process \d+/);
    // Nothing is left behind: no claim, no half-made lock, and every lock was released.
    expect(readdirSync(dir).sort()).toEqual([]);
  },
  120_000,
);

it('takes over a stale lock whose claimant died mid-takeover, and removes what both left', () => {
  const file = join(dir, 'claimed.state');
  const stale = JSON.stringify({ pid: deadPid(101), host: hostname() });
  writeFileSync(`${file}.lock`, stale);
  const digest = createHash('sha256').update(stale).digest('hex').slice(0, 16);
  const claimant = deadPid(202);
  writeFileSync(`${file}.lock.${digest}`, JSON.stringify({ pid: claimant, host: hostname() }));
  writeFileSync(`${file}.lock.${claimant}-0123456789ab.tmp`, '{"pid":');
  const service = createMockService({ stateFile: file });
  expect(JSON.parse(readFileSync(`${file}.lock`, 'utf8'))).toMatchObject({ pid: process.pid });
  expect(readdirSync(dir).filter((name) => name.startsWith('claimed.'))).toEqual([
    'claimed.state',
    'claimed.state.lock',
  ]);
  service.stateFile!.close();
});

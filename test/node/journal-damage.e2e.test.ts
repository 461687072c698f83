import { spawn } from 'node:child_process';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMPLETED_LINE, journalFixture, submitting, two } from './journal-fixture.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const WRITER = fileURLToPath(new URL('../fixtures/journal-writer.ts', import.meta.url));
const { file, withJournal, write } = journalFixture();

const read = () => withJournal((journal) => journal.read());

/**
 * Runs the journal writer fixture until it has confirmed its first appends, then kills it with
 * SIGKILL; resolves with the request numbers it confirmed.
 */
async function killedWriter(): Promise<number[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', WRITER, file()], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('close', (_code, signal) => resolve(signal)),
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (out === '') setTimeout(() => (child.kill('SIGKILL'), resolve()), 200);
      out += chunk.toString();
    });
    child.on('close', () => reject(new Error(`writer exited before it was killed: ${err}`)));
  });
  expect(await exited).toBe('SIGKILL');
  return out
    .split('\n')
    .filter((l) => /^\d+$/.test(l))
    .map(Number);
}

describe('FileJournal after a crash', () => {
  it('ignores and reports a torn last line (half a line, no newline), keeping everything before it', async () => {
    await write(two);
    await appendFile(
      file(),
      '{"type":"final","at":"2026-11-22T00:00:09.000Z","taskId":"task_1","sta',
    );
    const state = await read();
    expect(state.tornTail).toBe(true);
    expect(state.records).toEqual([
      expect.objectContaining({ clientRequestId: 'r1', state: 'active', taskId: 'task_1' }),
    ]);
  });

  it.each([
    ['a complete-looking line without its newline', COMPLETED_LINE],
    ['zeros after a crash, without a newline', '\0\0\0\0'],
  ])('treats %s as a torn tail', async (_name, tail) => {
    await write(two);
    await appendFile(file(), tail);
    expect(await read()).toMatchObject({
      tornTail: true,
      records: [{ clientRequestId: 'r1', state: 'active' }],
    });
  });

  it('terminates a torn fragment before the next append, so nothing is glued to it', async () => {
    await write(two);
    await appendFile(file(), COMPLETED_LINE);
    const state = await withJournal(async (journal) => {
      await journal.append(submitting('r2'));
      return journal.read();
    });
    expect(state).toMatchObject({ tornTail: false, terminatedFragments: [3] });
    // The fragment never counted (its append never resolved), before or after the repair.
    expect(state.records.map((r) => [r.clientRequestId, r.state])).toEqual([
      ['r1', 'active'],
      ['r2', 'submitting'],
    ]);
    const lines = (await readFile(file(), 'utf8')).split('\n');
    expect(lines[2]).toMatch(/"status":"completed"}$/);
    expect(JSON.parse(lines[3]!)).toMatchObject({ type: 'torn', line: 3 });
    expect(JSON.parse(lines[4]!)).toMatchObject({ type: 'submitting', clientRequestId: 'r2' });
  });

  it('throws naming the file and line when a line in the middle is damaged', async () => {
    const at = (second: number) => `2026-11-22T00:00:0${second}.000Z`;
    const first = {
      type: 'submitting',
      at: at(1),
      clientRequestId: 'r1',
      model: 'm',
      endpoint: '/v1/videos',
    };
    const third = { type: 'submitted', at: at(2), clientRequestId: 'r1', taskId: 't1', model: 'm' };
    await writeFile(
      file(),
      [JSON.stringify(first), 'garbage', JSON.stringify(third), ''].join('\n'),
    );
    await expect(read()).rejects.toThrow(`Task journal ${file()} is damaged at line 2`);
  });

  it('survives a real kill -9: every append that resolved is there, and the file reads', async () => {
    const confirmed = await killedWriter();
    expect(confirmed.length).toBeGreaterThan(0);
    const state = await read();
    const ids = new Set(state.records.map((r) => r.clientRequestId));
    for (const i of confirmed)
      expect(ids.has(`req-${i}`), `req-${i} resolved but is missing`).toBe(true);
    // At most the one append in flight at the kill may be there beyond the confirmed ones.
    expect(ids.size - confirmed.length).toBeLessThanOrEqual(1);
  });
});

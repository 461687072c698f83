// src/node/atomic-file.ts's synchronous write: whole or not at all, and (exclusive) only where nothing is.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { writeTextAtomicallySync } from '../../src/node/atomic-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'videotask-atomic-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('replaces a file whole and leaves no temporary file', () => {
  const target = join(dir, 'replaced.txt');
  writeFileSync(target, 'old');
  writeTextAtomicallySync(target, 'new', { mode: 0o600 });
  expect(readFileSync(target, 'utf8')).toBe('new');
  expect(statSync(target).mode & 0o777).toBe(0o600);
  expect(readdirSync(dir)).toEqual(['replaced.txt']);
  rmSync(target);
});

it('exclusive: creates a missing file, refuses (EEXIST) an existing one and leaves it as it was', () => {
  const target = join(dir, 'lock');
  const temp = join(dir, 'lock.42-0123456789ab.tmp');
  writeTextAtomicallySync(target, 'first', { exclusive: true, temp });
  expect(() => writeTextAtomicallySync(target, 'second', { exclusive: true, temp })).toThrow(
    expect.objectContaining({ code: 'EEXIST' }),
  );
  expect(readFileSync(target, 'utf8')).toBe('first');
  expect(readdirSync(dir)).toEqual(['lock']);
  rmSync(target);
});

it('leaves a file already at the temporary path alone, and the target as it was', () => {
  const target = join(dir, 'kept.txt');
  const temp = join(dir, 'kept.txt.taken.tmp');
  writeFileSync(target, 'old');
  writeFileSync(temp, 'not ours');
  expect(() => writeTextAtomicallySync(target, 'new', { temp })).toThrow(
    expect.objectContaining({ code: 'EEXIST' }),
  );
  expect(readFileSync(temp, 'utf8')).toBe('not ours');
  expect(readFileSync(target, 'utf8')).toBe('old');
  rmSync(temp);
  rmSync(target);
});

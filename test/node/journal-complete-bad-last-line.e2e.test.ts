import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { JournalError } from '../../src/client/index.ts';
import { FileJournal } from '../../src/node/index.ts';
import { closedPort, runVideotask } from '../helpers/cli.ts';

// Issue 14 item 8: a complete, newline-terminated last line that was not a valid entry was called
// "cut off by a crash", ignored, and marked `torn` for good by the next append: the task it names was
// never followed again. Only a line without its final newline can be torn by a crash.
const GOOD = [
  '{"type":"submitting","at":"2026-11-22T00:00:01.000Z","requestId":"r1",' +
    '"model":"video-pro-v1","endpoint":"/v1/videos"}',
  '{"type":"submitted","at":"2026-11-22T00:00:02.000Z","requestId":"r1","taskId":"task_1","model":"video-pro-v1"}',
];
// A submitted entry for task_2 that lost its model: complete (it ends in a newline), but not an entry.
const BAD =
  '{"type":"submitted","at":"2026-11-22T00:00:03.000Z","requestId":"r2","taskId":"task_2"}';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'videotask-damaged-'));
  file = join(dir, 'tasks.jsonl');
  await writeFile(file, `${[...GOOD, BAD].join('\n')}\n`);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

it('reads a complete bad last line as damage at that line, naming what it holds', async () => {
  const journal = new FileJournal(file);
  const error = await journal.read().catch((e: unknown) => e);
  await journal.close();
  expect(error).toBeInstanceOf(JournalError);
  expect((error as JournalError).line).toBe(3);
  expect((error as Error).message).toMatch(
    /^Task journal .* is damaged at line 3: submitted\.model is missing .*task_2.*Nothing was dropped/,
  );
});

it('never marks a complete bad line as a torn fragment when appending', async () => {
  const journal = new FileJournal(file);
  await journal.append({ type: 'final', taskId: 'task_1', status: 'completed' });
  await journal.close();
  const text = await readFile(file, 'utf8');
  expect(text).not.toContain('"type":"torn"');
  expect(text.split('\n')[2]).toBe(BAD);
});

it('videotask wait --journal refuses the damaged journal with exit 2 and the line to repair', async () => {
  const run = await runVideotask(['wait', '--journal', file], {
    env: {
      ...process.env,
      VIDEOTASK_BASE_URL: `http://127.0.0.1:${await closedPort()}`,
      VIDEOTASK_API_KEY: 'sk-mock-alice',
    },
  });
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/is damaged at line 3/);
  expect(run.stderr).toMatch(/→ nothing was changed or dropped: repair or move line 3 by hand/);
  expect(run.stderr).not.toMatch(/cut off by a crash|please report it/);
});

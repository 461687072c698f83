import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shellEnv } from '../helpers/shell-env.ts';

// Tried as a new user would (issue 25): in a scratch copy of the project, one sentence of the service
// document changes, as a new version of it would. What `npm test` runs first (`npm run lint:spec`),
// and the statement test it runs later, both say which statement changed, its old and new words, and
// what is mapped to the old one.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const COPIED = [
  'bin',
  'cli',
  'contracts',
  'docs',
  'mocks',
  'src',
  'spec',
  'test',
  'package.json',
  'tsconfig.json',
  'vitest.config.ts',
];
const OLD = 'It is never resubmitted.';
const NEW = 'It is resubmitted once it has waited ten minutes.';
const EXPECTED = [
  '§3 statement 3-rule-1-poll-never-resubmit changed (spec/service-document.md line 99)',
  `was: A task in \`queued\` or \`in_progress\` is polled again. ${OLD}`,
  `now: A task in \`queued\` or \`in_progress\` is polled again. ${NEW}`,
  'contract checks client.no-resubmission',
  'x-lifecycle rules no-resubmission',
  'test/contracts/budget.test.ts "tiers and budget > never resubmits',
  'update 3-rule-1-poll-never-resubmit in spec/statements.yaml',
];

let scratch: string;

/** Runs node with `args` in the scratch copy: exit code and both outputs. */
function run(args: readonly string[]): Promise<{ code: number; output: string }> {
  // A child vitest must not take this run's worker variables for its own.
  const env = Object.fromEntries(
    Object.entries(shellEnv({ NO_COLOR: '1', FORCE_COLOR: '0' })).filter(
      ([name]) => !/^(VITEST|TEST$)/.test(name),
    ),
  );
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: scratch, env, timeout: 120_000 }, (error, out, err) =>
      resolve({ code: error === null ? 0 : Number(error.code ?? 99), output: `${out}\n${err}` }),
    );
  });
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'videotask-new-document-'));
  for (const path of COPIED) cpSync(join(ROOT, path), join(scratch, path), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(scratch, 'node_modules'), 'dir');
  const document = join(scratch, 'spec/service-document.md');
  const text = readFileSync(document, 'utf8');
  expect(text.split(OLD)).toHaveLength(2);
  writeFileSync(document, text.replace(OLD, NEW));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('a sentence of the service document changes in a scratch copy', () => {
  it('`npm run lint:spec` fails naming the statement, its old and new words and its mapping', async () => {
    const { code, output } = await run(['bin/videotask.js', 'lint-spec']);
    expect(code).toBe(1);
    for (const line of EXPECTED) expect(output).toContain(line);
    expect(output).toMatch(/ok .*openapi\.yaml/);
  });

  it(
    'the statement test of `npm test` fails with the same account',
    { timeout: 150_000 },
    async () => {
      const vitest = join('node_modules', 'vitest', 'vitest.mjs');
      const { code, output } = await run([vitest, 'run', 'test/spec/statements.test.ts']);
      expect(code).toBe(1);
      expect(output).toContain('× holds every sentence and table row of the service document');
      // The rest of the mapping still holds: its checks, tests and pointers exist.
      expect(output).toContain('✓ names only tests that exist, by file and full title');
      for (const line of EXPECTED) expect(output).toContain(line);
    },
  );
});

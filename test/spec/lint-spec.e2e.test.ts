import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { SERVICE_SPEC_PATH } from '../../src/spec/load-spec-file.ts';
import { runVideotask } from '../helpers/cli.ts';

// `videotask lint-spec` (npm test's spec lint) refuses a spec whose extensions the code could not load.
const dir = mkdtempSync(join(tmpdir(), 'videotask-lint-spec-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const source = readFileSync(SERVICE_SPEC_PATH, 'utf8');
const GET_VIDEO_SUMMARY =
  'summary: Query status in OpenAI-compatible form (recommended for status)';

it('passes the committed specs and statement table', async () => {
  const run = await runVideotask(['lint-spec']);
  const [openapi, control, table, freedoms, end] = run.stdout.split('\n');
  expect(freedoms).toMatch(/^ok spec\/freedoms\.yaml: \d+ freedoms, \d+ variations/);
  expect([openapi, control, end]).toEqual([
    expect.stringMatching(/^ok .*openapi\.yaml$/),
    expect.stringMatching(/^ok .*mock-control\.yaml$/),
    '',
  ]);
  expect(table).toMatch(
    /^ok spec\/statements\.yaml: \d+ statements hold every sentence and table row/,
  );
  expect(run.code).toBe(0);
});

// `--trace`: the account of spec/statements.yaml (issue 25).
it('prints the account of the statement table with --trace, and its counts with --json', async () => {
  const text = await runVideotask(['lint-spec', '--trace']);
  expect(text.code).toBe(0);
  expect(text.stdout).toMatch(
    /^spec\/statements\.yaml: \d+ statements, 0 unmapped\n {2}by kind: \d+ server/,
  );
  for (const line of [
    /judged by contract checks, proven per statement: \d+ of the \d+ that name one \(server rules: /,
    /\(server rules: \d+ of \d+\); \d+ judged in part, \d+ by assumptions only, /,
    /judged by client rules: \d+/,
    /played by the mock \(or the project's own client and tools\), in a named test: \d+/,
    /\n\nGaps: a part of the statement no self-proof case proves, or no check judges yet \(\d+\):\n/,
    /Server rules no contract check judges \(\d+\):\n {2}§2\.1 {2}2\.1-image \(server rule\)/,
  ])
    expect(text.stdout).toMatch(line);
  const json = await runVideotask(['lint-spec', '--trace', '--json']);
  const account = JSON.parse(json.stdout) as Record<string, unknown>;
  expect(account).toMatchObject({ unmapped: 0, problems: [] });
  for (const key of ['statements', 'judged', 'clientRules', 'reasons', 'gaps', 'unmapped'])
    expect(typeof account[key], key).toBe('number');
  for (const key of ['judged', 'judgedInPart', 'assumptionOnly', 'reasons', 'unproven'])
    expect(typeof (account['proof'] as Record<string, unknown>)[key], key).toBe('number');
  // The room the document leaves (issue 31 item 1): each freedom and the checks that rely on it,
  // counted in the trace, listed with --all and in the JSON.
  const freedoms = account['freedoms'] as { problems: unknown[]; byCheck: Record<string, unknown> };
  expect(freedoms.problems).toEqual([]);
  expect(Object.keys(freedoms.byCheck).length).toBeGreaterThan(10);
  expect(text.stdout).toMatch(/spec\/freedoms\.yaml: \d+ freedoms the document leaves/);
  const all = await runVideotask(['lint-spec', '--trace', '--all']);
  expect(all.stdout).toMatch(/ {2}§1 {4}base-url-path: .*\n {8}relied on by: /);
  expect(json.code).toBe(0);
});

it.each([
  [['--json'], /--json prints the account of --trace: add --trace/],
  [['--all'], /--all prints the account of --trace: add --trace/],
  [['--trace', 'spec/openapi.yaml'], /give no FILE with them/],
  [
    ['--trace', '--document', '/nonexistent/doc.md'],
    /cannot read --document \/nonexistent\/doc\.md: no such file/,
  ],
])('refuses lint-spec %j as usage, exit 2', async (args, message) => {
  const run = await runVideotask(['lint-spec', ...args]);
  expect(run.stderr).toMatch(message);
  expect(run.code).toBe(2);
});

it.each([
  ['x-polling', 'maxAttempts: 60', 'maxAttempts: 0', /x-polling\.maxAttempts must be a number ≥ 1/],
  ['x-error-codes', 'envelope: task', 'envelope: soap', /x-error-codes\.codes\[\d+\].*envelope/],
  [
    'x-error-codes',
    'operations: [getPluginTask]',
    'operations: [getPluginTasks]',
    /names operations the spec does not declare: getPluginTasks/,
  ],
  ['x-second-family', 'pricePerSecond: 0.8', 'pricePerSecond: cheap', /pricePerSecond/],
  [
    'info.contact',
    '  contact:\n    name:',
    '  x-contact:\n    name:',
    /info\.contact\.name is missing/,
  ],
  [
    'operation description',
    `${GET_VIDEO_SUMMARY}\n      description:`,
    `${GET_VIDEO_SUMMARY}\n      x-description:`,
    /GET \/v1\/videos\/\{task_id\} \(getVideo\) has no description/,
  ],
])('refuses a spec with a broken %s (%s → %s), exit 1', async (_name, from, to, message) => {
  expect(source).toContain(from);
  const file = join(dir, 'broken.yaml');
  writeFileSync(file, source.replace(from, to));
  const run = await runVideotask(['lint-spec', file]);
  expect(run.stderr).toMatch(message);
  expect(run.code).toBe(1);
});

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

it('passes the committed specs', async () => {
  const run = await runVideotask(['lint-spec']);
  expect(run.stdout).toMatch(/^ok .*openapi\.yaml\nok .*mock-control\.yaml\n$/);
  expect(run.code).toBe(0);
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

import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { CLIENT_RULES } from '../../src/spec/index.ts';
import { ROOT } from '../docs/doc-blocks.ts';

// docs/client-verdicts.md shows a vitest test that fails because its client resubmits a running task.
// This runs that very block with vitest, in a folder of its own, and checks that vitest fails it with
// the verdict; and checks that the page's table of rules is the spec's.
const GUIDE = readFileSync(join(ROOT, 'docs', 'client-verdicts.md'), 'utf8');
const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** The ```ts block after the sentence that announces it. */
function shownTest(): string {
  const at = GUIDE.indexOf('A vitest test that fails because the client resubmits');
  const start = GUIDE.indexOf('```ts\n', at) + '```ts\n'.length;
  return GUIDE.slice(start, GUIDE.indexOf('```\n', start));
}

it('fails the test the guide shows, with the no-resubmission verdict and its advice', async () => {
  const cache = join(ROOT, 'node_modules', '.cache', 'videotask-doc-test');
  mkdirSync(cache, { recursive: true });
  const folder = mkdtempSync(join(cache, 'vitest-'));
  folders.push(folder);
  const source = shownTest().replace(
    "from 'videotask/mocks'",
    `from ${JSON.stringify(join(ROOT, 'mocks', 'index.ts'))}`,
  );
  writeFileSync(join(folder, 'make-video.test.ts'), source);
  // A config of its own: this checkout's would look for test/**, and the folder is under node_modules.
  const config = join(folder, 'vitest.config.mjs');
  writeFileSync(config, "export default { test: { include: ['*.test.ts'], exclude: [] } };\n");
  const run = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const args = [VITEST, 'run', '--root', folder, '--config', config, '--reporter', 'verbose'];
    const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };
    execFile(
      process.execPath,
      args,
      { cwd: folder, env, timeout: 90_000 },
      (error, stdout, stderr) =>
        resolve({
          code: error === null ? 0 : (error.code as number | null),
          output: stdout + stderr,
        }),
    );
  });
  expect(run.code, run.output).toBe(1);
  expect(run.output).toContain(
    'ClientVerdictError: The client broke a rule of the service document: no-resubmission (§3)',
  );
  expect(run.output).toContain('Keep polling the same task. Do not resubmit (§3 rule 1).');
}, 120_000);

it('lists every judged rule of x-client-rules with its section and outcome, and every other one', () => {
  const rows = [...GUIDE.matchAll(/^\| `([a-z0-9-]+)` \| (§[\d.]+) \| (\w+) \|/gm)].map(
    ([, id, section, outcome]) => [id, section, outcome],
  );
  const judged = CLIENT_RULES.filter((r) => r.judged);
  expect(rows).toEqual(judged.map((r) => [r.id, r.section, r.outcome]));
  for (const rule of CLIENT_RULES.filter((r) => !r.judged))
    expect(GUIDE).toContain(`\`${rule.id}\` (${rule.section}`);
});

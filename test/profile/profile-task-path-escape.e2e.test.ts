// Found while fixing issue 33 item 4 (a profile's task IDs read in every path): serving a learned
// profile whose task ID form is not the mock's own (`vtsk-{alnum:32}`, a UUID), one GET with a
// malformed escape in the task's place (`/v1/videos/%E0%A4%A`) threw `URIError: URI malformed` out of
// the service before its own error handling, and the `videotask mock` process died, no key needed. The
// segment now names no task: a refusal like any missing task's, and the mock keeps answering.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import { killMockProcesses, listening, spawnMock } from '../helpers/mock-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'videotask-path-escape-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(killMockProcesses);

it('answers a malformed escape in a task path and keeps answering', async () => {
  const observed = JSON.parse(
    readFileSync(new URL('../../mocks/profiles/observed.json', import.meta.url), 'utf8'),
  ) as Record<string, unknown>;
  const file = join(dir, 'vtsk.json');
  writeFileSync(file, JSON.stringify({ ...observed, taskId: { form: 'vtsk-{alnum:32}' } }));
  const mock = spawnMock('--port', '0', '--profile', file);
  const url = await listening(mock, /profile/);
  const headers = { authorization: 'Bearer sk-mock-alice' };
  for (const path of ['/v1/videos/%E0%A4%A', '/v1/video/generations/%ZZ', '/v1/videos/%/content']) {
    const answer = await fetch(`${url}${path}`, { headers });
    expect(answer.status).toBeLessThan(500);
  }
  expect((await fetch(`${url}/v1/models`, { headers })).status).toBe(200);
});

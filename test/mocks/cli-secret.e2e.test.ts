// `videotask mock`'s deployment secret (decisions/010): from --secret-file, VIDEOTASK_MOCK_SECRET or
// --secret, never printed; two mocks with the same one answer each other's tasks. A secret flag refused
// (both given, an empty one, a missing file): test/mocks/cli-mock-flags.test.ts, in-process.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import { killMockProcesses, listening, spawnMock } from '../helpers/mock-process.ts';

const BANNER_END = /secret: .*\n/;
const SECRET = 'replicas-share-this-0123456789';
const dir = mkdtempSync(join(tmpdir(), 'videotask-cli-secret-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(killMockProcesses);

const headers = { authorization: 'Bearer sk-mock-alice', 'content-type': 'application/json' };

it('serves one deployment from two mocks sharing a --secret-file, and never prints the secret', async () => {
  const file = join(dir, 'secret');
  writeFileSync(file, `${SECRET}\n`);
  const a = spawnMock('--port', '0', '--secret-file', file, '--seed', '1');
  const b = spawnMock('--port', '0', '--secret-file', file, '--seed', '2');
  const [baseA, baseB] = await Promise.all([listening(a, BANNER_END), listening(b, BANNER_END)]);
  for (const mock of [a, b]) {
    expect(mock.stdout()).toContain(`secret: from --secret-file ${file}`);
    expect(mock.stdout() + mock.stderr()).not.toContain(SECRET);
  }
  const submitted = await fetch(`${baseA}/v1/videos`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ model: 'video-pro-v1', prompt: 'a kite' }),
  });
  const { id } = (await submitted.json()) as { id: string };
  const fromB = await fetch(`${baseB}/v1/videos/${id}`, { headers });
  expect(fromB.status).toBe(200);
  expect(await fromB.json()).toMatchObject({ id, model: 'video-pro-v1' });
  const bob = await fetch(`${baseB}/v1/videos/${id}`, {
    headers: { authorization: 'Bearer sk-mock-bob' },
  });
  expect(bob.status).toBe(404);
});

it('takes the secret from VIDEOTASK_MOCK_SECRET, naming the variable and not its value', async () => {
  process.env['VIDEOTASK_MOCK_SECRET'] = SECRET;
  try {
    const mock = spawnMock('--port', '0');
    await listening(mock, BANNER_END);
    expect(mock.stdout()).toContain('secret: from VIDEOTASK_MOCK_SECRET');
    expect(mock.stdout()).not.toContain(SECRET);
  } finally {
    delete process.env['VIDEOTASK_MOCK_SECRET'];
  }
});

it('says a random secret stays in this process when none is given', async () => {
  const mock = spawnMock('--port', '0');
  await listening(mock, BANNER_END);
  expect(mock.stdout()).toMatch(/secret: random, this process only/);
});

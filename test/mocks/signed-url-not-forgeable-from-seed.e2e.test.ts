import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { killMockProcesses, listening, spawnMockWithEnv } from '../helpers/mock-process.ts';
import { call, submit } from '../helpers/workers.ts';

// Issue 14 item 2: the result address was signed with HMAC(`videotask-mock:<seed>`), and the seed is
// printed in the banner (or is QA's own small `--seed`): anyone could sign any task with any expiry.
// The secret is now per deployment and independent of the seed (decisions/010), and task IDs are not
// predictable from the seed either.
const { VIDEOTASK_MOCK_SECRET: _inherited, ...env } = process.env;
const SEED = '7';
afterEach(killMockProcesses);

async function completedTask(base: string): Promise<{ id: string; url: string }> {
  const id = await submit(base, 'a red kite over the sea');
  for (let attempt = 0; attempt < 200; attempt++) {
    const answer = await call(base, 'GET', `/v1/video/generations/${id}`);
    const found = /https?:\/\/[^"]*\/__artifacts\/[^"]+/.exec(answer.text);
    if (found !== null) return { id, url: found[0] };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`task ${id} never showed its result address`);
}

/** What an attacker who knows the seed could sign before the fix. */
function forgedFromSeed(base: string, id: string): string {
  const expires = Math.floor(Date.now() / 1000) + 365 * 24 * 3600;
  const sig = createHmac('sha256', `videotask-mock:${SEED}`)
    .update(`${id}:${expires}`)
    .digest('hex')
    .slice(0, 32);
  return `${base}/__artifacts/${id}.mp4?expires=${expires}&sig=${sig}`;
}

describe('a mock started with a known --seed', () => {
  it('serves its own signed address, refuses one signed with the seed', async () => {
    const mock = spawnMockWithEnv(env, '--port', '0', '--seed', SEED, '--speed', '2000');
    const base = await listening(mock, /listening/);
    const { id, url } = await completedTask(base);
    expect((await fetch(url)).status).toBe(200);
    const forged = await fetch(forgedFromSeed(base, id));
    expect([403, 404]).toContain(forged.status);
    expect(forged.headers.get('content-type')).toMatch(/json/);
  }, 60_000);

  it('gives other task IDs than another mock with the same seed', async () => {
    const [a, b] = [0, 1].map(() => spawnMockWithEnv(env, '--port', '0', '--seed', SEED));
    const bases = await Promise.all([a!, b!].map((mock) => listening(mock, /listening/)));
    const ids = await Promise.all(bases.map((base) => submit(base, 'the same prompt')));
    expect(ids[0]).toMatch(/^task_[0-9A-Za-z]{32}$/);
    expect(ids[0]).not.toBe(ids[1]);
  }, 60_000);
});

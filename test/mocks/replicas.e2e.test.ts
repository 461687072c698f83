// Replicas (docs/replicas.md, decisions/016): two separate `videotask mock` processes with the same
// secret and a real clock answer each other's tasks alike — status, progress and the bytes of the
// video — with no state shared between them; with another secret a task is simply missing.
import { afterEach, describe, expect, it } from 'vitest';
import {
  killMockProcesses,
  listening,
  spawnMockWithEnv,
  type MockProcess,
} from '../helpers/mock-process.ts';

const BANNER_END = /secret: .*\n/;
const ALICE = { authorization: 'Bearer sk-mock-alice' };
afterEach(killMockProcesses);

async function replica(secret: string): Promise<{ mock: MockProcess; base: string }> {
  const env = { ...process.env, VIDEOTASK_MOCK_SECRET: secret };
  const mock = spawnMockWithEnv(env, '--port', '0');
  return { mock, base: await listening(mock, BANNER_END, 30_000) };
}

async function submit(base: string, prompt: string): Promise<string> {
  const response = await fetch(`${base}/v1/videos`, {
    method: 'POST',
    headers: { ...ALICE, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'video-pro-v1', prompt }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { id: string }).id;
}

interface View {
  readonly status: string;
  readonly progress: number;
}

async function view(base: string, id: string): Promise<{ code: number; task: View }> {
  const response = await fetch(`${base}/v1/videos/${id}`, { headers: ALICE });
  const task = (await response.json()) as View;
  return { code: response.status, task: { status: task.status, progress: task.progress } };
}

/** Progress only moves forward: what B shows lies between what A showed just before and just after. */
function between(before: View, middle: View, after: View): boolean {
  const key = (v: View) => ORDER.indexOf(v.status) * 1000 + v.progress;
  return key(before) <= key(middle) && key(middle) <= key(after);
}
const ORDER = ['unknown', 'queued', 'in_progress', 'completed', 'failed'];

describe('replicas: separate mocks with the same secret (real processes, real clock)', () => {
  it("answer each other's tasks alike, down to the bytes of the video", async () => {
    const secret = 'replica-test-secret-0123456789';
    const [a, b] = await Promise.all([replica(secret), replica(secret)]);
    const ids = [
      ...(await Promise.all([1, 2, 3, 4, 5].map((n) => submit(a.base, `kite ${n}`)))),
      ...(await Promise.all([1, 2, 3, 4, 5].map((n) => submit(b.base, `kite ${n}`)))),
    ];
    let completed: string | undefined;
    const deadline = Date.now() + 100_000; // tasks run 22–68 s at --speed 1; ten of them: one early
    while (completed === undefined && Date.now() < deadline) {
      for (const id of ids) {
        const before = await view(a.base, id);
        const middle = await view(b.base, id);
        const after = await view(a.base, id);
        expect([before.code, middle.code, after.code]).toEqual([200, 200, 200]);
        expect(between(before.task, middle.task, after.task)).toBe(true);
        if (after.task.status === 'completed' && middle.task.status === 'completed') completed = id;
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    expect(completed).toBeDefined();
    const bytes = async (base: string) => {
      const response = await fetch(`${base}/v1/videos/${completed}/content`, { headers: ALICE });
      expect(response.status).toBe(200);
      return Buffer.from(await response.arrayBuffer());
    };
    const [fromA, fromB] = await Promise.all([bytes(a.base), bytes(b.base)]);
    expect(fromA.length).toBeGreaterThan(1000);
    expect(fromB.equals(fromA)).toBe(true);
  }, 150_000);

  it('answers 404 for a task of a replica with another secret', async () => {
    const [a, b] = await Promise.all([replica('secret-one-0123456789'), replica('secret-two-987')]);
    const id = await submit(a.base, 'a red kite');
    expect((await view(a.base, id)).code).toBe(200);
    expect((await view(b.base, id)).code).toBe(404);
  }, 60_000);
});

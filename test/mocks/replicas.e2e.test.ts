// Replicas (docs/replicas.md, decisions/016): two separate `videotask mock` processes with the same
// secret and a real clock answer each other's tasks alike — status, progress and the bytes of the
// video — with no state shared between them; with another secret a task is simply missing. Given
// `--replica K/N`, each mints task IDs in a share of its own (decisions/010), its workers too. A bad
// --replica is refused before anything starts: test/mocks/cli-mock-flags.test.ts, in-process.
import { afterEach, describe, expect, it } from 'vitest';
import { deploymentKeys } from '../../mocks/core/signing/secret.ts';
import { hmacSha256 } from '../../mocks/core/signing/sha256.ts';
import { TaskIdCodec } from '../../mocks/core/task-id/task-id-codec.ts';
import { unpackFields } from '../../mocks/core/task-id/task-id-layout.ts';
import {
  killMockProcesses,
  listening,
  spawnMockWithEnv,
  type MockProcess,
} from '../helpers/mock-process.ts';

const BANNER_END = /secret: .*\n/;
const ALICE = { authorization: 'Bearer sk-mock-alice' };
afterEach(killMockProcesses);

async function replica(
  secret: string,
  ...args: string[]
): Promise<{ mock: MockProcess; base: string }> {
  const env = { ...process.env, VIDEOTASK_MOCK_SECRET: secret };
  const mock = spawnMockWithEnv(env, '--port', '0', ...args);
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
/**
 * Each process reads the real clock on its own monotonic scale (`performance.timeOrigin`, fixed at
 * its start): two processes may disagree by a few milliseconds. A's "after" is read this much later,
 * so a transition B saw a moment before A does still lies between; waiting longer only widens it.
 */
const CLOCK_SKEW_MS = 250;
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
        await new Promise((resolve) => setTimeout(resolve, CLOCK_SKEW_MS));
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

  it('mint task IDs in the share --replica K/N gives them, each worker in its own part of it', async () => {
    const secret = 'replica-share-secret-0123456789';
    const { mock, base } = await replica(secret, '--replica', '2/3', '--workers', '2');
    expect(mock.stdout()).toContain('replica 2 of 3: no two replicas make the same task ID');
    const keys = deploymentKeys(secret, hmacSha256);
    const codec = new TaskIdCodec({ mac: keys.idMac, stream: keys.idStream });
    const slots = new Map<string, Set<number>>();
    for (let n = 0; n < 16 || slots.size < 2; n++) {
      const response = await fetch(`${base}/v1/videos`, {
        method: 'POST',
        headers: { ...ALICE, 'content-type': 'application/json', connection: 'close' },
        body: JSON.stringify({ model: 'video-pro-v1', prompt: 'a red kite' }),
      });
      const { id } = (await response.json()) as { id: string };
      const { draw } = unpackFields(codec.open(id)!.payload)!;
      expect(draw % 3).toBe(1); // replica 2 of 3
      const worker = response.headers.get('x-mock-worker')!;
      slots.set(worker, (slots.get(worker) ?? new Set()).add(Math.floor(draw / 3) % 3));
    }
    // Worker 1 has slot 0, worker 2 slot 1: modulo 3 (the primary's is 2).
    expect(slots).toEqual(
      new Map([
        ['1', new Set([0])],
        ['2', new Set([1])],
      ]),
    );
  }, 60_000);
});

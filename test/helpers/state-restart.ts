/** Requests of the `--state` restart tests (real processes), and submitters that keep a mock busy. */
import { expect } from 'vitest';

export async function call(
  base: string,
  method: string,
  path: string,
  key?: string,
  body?: unknown,
) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await response.text();
  const parsed = (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>;
  return { status: response.status, body: parsed };
}

export async function submit(base: string, key: string, prompt = 'a red kite'): Promise<string> {
  const answer = await call(base, 'POST', '/v1/videos', key, { model: 'video-pro-v1', prompt });
  if (answer.status !== 200) throw new Error(`submission answered ${answer.status}`);
  return answer.body['id'] as string;
}

export interface TaskView {
  readonly status: string;
  readonly progress: number;
}

export const status = async (base: string, id: string, key: string): Promise<TaskView> =>
  (await call(base, 'GET', `/v1/videos/${id}`, key)).body as unknown as TaskView;

export interface Submitters {
  /** Every task the mock acknowledged with a 200, with the key that owns it. */
  readonly acknowledged: { id: string; key: string }[];
  /** What a query right after its submission showed, per task. */
  readonly seen: Map<string, TaskView>;
  /** Resolves once `count` tasks are acknowledged; rejects if every submitter stopped before. */
  readonly reached: Promise<void>;
  /** Tells the submitters to stop and waits for them (each stops at once when the mock is gone). */
  stop(): Promise<void>;
}

const KEYS = ['sk-mock-alice', 'sk-mock-bob', 'sk-mock-vip'];
/** Submissions in flight at once in `keepSubmitting`. */
const SUBMITTERS = 6;

/**
 * Six clients submitting and querying tasks (one in five `slow`) as fast as the mock answers, until
 * stopped or the mock is gone. A test waits for `reached` — a count of acknowledged tasks, an event —
 * never for a time: how much a loaded machine gets done in 1.5 s is not a property of the mock.
 */
export function keepSubmitting(base: string, count: number): Submitters {
  const acknowledged: { id: string; key: string }[] = [];
  const seen = new Map<string, TaskView>();
  let stopped = false;
  let enough!: () => void;
  const counted = new Promise<void>((resolve) => (enough = resolve));
  const submitter = async (n: number) => {
    for (let i = 0; !stopped; i++) {
      const key = KEYS[(n + i) % 3]!;
      const id = await submit(base, key, i % 5 === 0 ? 'x [mock:slow]' : 'x').catch(() => '');
      if (id === '') return;
      acknowledged.push({ id, key });
      if (acknowledged.length >= count) enough();
      const shown = await status(base, id, key).catch(() => undefined);
      if (shown === undefined) return;
      seen.set(id, shown);
    }
  };
  const running = Promise.all(Array.from({ length: SUBMITTERS }, (_, n) => submitter(n)));
  const reached = Promise.race([
    counted,
    running.then(() => {
      throw new Error(`the submitters stopped after ${acknowledged.length} of ${count} tasks`);
    }),
  ]);
  return {
    acknowledged,
    seen,
    reached,
    async stop() {
      stopped = true;
      await running;
    },
  };
}

/**
 * After a kill -9 and a restart on the state file at `base`: every acknowledged task is listed, and
 * at most one more per submitter (a task kept on disk whose answer the kill cut off).
 */
export async function expectKeptAfterKill(
  base: string,
  acknowledged: readonly { id: string }[],
): Promise<void> {
  const listed = (await call(base, 'GET', '/__mock/tasks')).body['tasks'] as { id: string }[];
  const ids = new Set(listed.map((t) => t.id));
  for (const { id } of acknowledged) expect(ids.has(id)).toBe(true);
  expect(ids.size - acknowledged.length).toBeLessThanOrEqual(SUBMITTERS);
}

// The soak's tasks: created over the built-in keys that may submit, polled through both query forms.

/** Built-in keys that may submit (sk-mock-broke has no quota), with a model each may use. */
export const OWNERS = [
  { key: 'sk-mock-alice', model: 'video-pro-v1' },
  { key: 'sk-mock-bob', model: 'video-lite-v1' },
  { key: 'sk-mock-vip', model: 'video-pro-v1' },
  { key: 'sk-mock-limited', model: 'video-lite-v1' },
] as const;

export interface OwnedTask {
  readonly id: string;
  /** The key that submitted it: the only one that may read it (§5). */
  readonly key: string;
}

/** Submissions in flight at once while the tasks are created. */
const SUBMITTERS = 32;

/** Creates `count` tasks, spread over OWNERS in turn, `SUBMITTERS` submissions at a time. */
export async function createTasks(url: string, count: number): Promise<OwnedTask[]> {
  const tasks = new Array<OwnedTask>(count);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < count; i = next++) {
      const owner = OWNERS[i % OWNERS.length]!;
      const response = await fetch(`${url}/v1/video/generations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: owner.model, prompt: `soak task ${i}` }),
        signal: AbortSignal.timeout(10_000),
      });
      const text = await response.text();
      if (response.status !== 200)
        throw new Error(`submission ${i} answered ${response.status}: ${text}`);
      tasks[i] = { id: (JSON.parse(text) as { id: string }).id, key: owner.key };
    }
  };
  await Promise.all(Array.from({ length: SUBMITTERS }, worker));
  return tasks;
}

/** Every task through both query forms, each with its owner's key: what the clients cycle over. */
export function pollRequests(
  tasks: readonly OwnedTask[],
): { path: string; headers: Record<string, string> }[] {
  return tasks.flatMap(({ id, key }) => {
    const headers = { authorization: `Bearer ${key}` };
    return [
      { path: `/v1/videos/${id}`, headers },
      { path: `/v1/video/generations/${id}`, headers },
    ];
  });
}

/** Status of `count` tasks spread over all of them (both forms must agree on existing). */
export async function statusMix(
  url: string,
  tasks: readonly OwnedTask[],
  count = 200,
): Promise<Record<string, number>> {
  const mix: Record<string, number> = {};
  for (let i = 0; i < count; i++) {
    const { id, key } = tasks[Math.floor((i * tasks.length) / count)]!;
    const response = await fetch(`${url}/v1/videos/${id}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const body = (await response.json()) as { status?: string };
    const status = response.status === 200 ? (body.status ?? '?') : `HTTP ${response.status}`;
    mix[status] = (mix[status] ?? 0) + 1;
  }
  return mix;
}

/** How many tasks the mock holds (`/__mock/health`). */
export async function tasksHeld(url: string): Promise<number> {
  const health = (await (await fetch(`${url}/__mock/health`)).json()) as { tasks: number };
  return health.tasks;
}

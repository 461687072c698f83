// A core client with defects switched on, and the calls the defect cases make with it.
import { missingFields, serviceContract } from '../../../src/spec/index.ts';
import { coreClient } from '../../helpers/core-client.ts';
import type { TaskBody } from '../../helpers/task-bodies.ts';

export type { TaskBody as Task, WrapperBody as Wrapper } from '../../helpers/task-bodies.ts';
export const { lifecycle, validators } = serviceContract();
export const SEED = 'defects';
export const KEYS = {
  alice: 'sk-mock-alice',
  bob: 'sk-mock-bob',
  vip: 'sk-mock-vip',
  /** May use video-lite-v1 only (§5: a token's permissions). */
  limited: 'sk-mock-limited',
  none: null,
} as const;
/** The second family's native path (§4.5), bound in these sessions. */
export const NATIVE = '/alt-video/api/v3/contents/generations/tasks';
export const NATIVE_BODY = {
  model: 'alt-video-v2',
  content: [{ type: 'text', text: 'a red kite' }],
};
export const MISSING = `task_${'x'.repeat(32)}`;
/** A second-family submission uploading its reference image as a file (§2.1: not accepted). */
export const FILE_UPLOAD = {
  headers: { 'content-type': 'multipart/form-data; boundary=kite' },
  raw:
    '--kite\r\nContent-Disposition: form-data; name="model"\r\n\r\nalt-video-v2\r\n' +
    '--kite\r\nContent-Disposition: form-data; name="prompt"\r\n\r\na red kite\r\n' +
    '--kite\r\nContent-Disposition: form-data; name="input_reference"; filename="kite.svg"\r\n' +
    'Content-Type: image/svg+xml\r\n\r\n<svg xmlns="http://www.w3.org/2000/svg"/>\r\n--kite--\r\n',
};
export const KITE = { model: 'video-pro-v1', prompt: 'a red kite' };

// ---------------------------------------------------------------------------------------------------
// A client with the defects, and a way to move one task to a point of its own plan.

export type Client = ReturnType<typeof coreClient>;

export function client(defects: readonly string[] = []): Client {
  return coreClient({ seed: SEED, defects, familyBound: true });
}

/** Moves the clock to `fraction` of the task's run (0: it starts running, 1: it finishes) plus `extraMs`. */
export function moveTo({ service }: Client, id: string, fraction: number, extraMs = 0): void {
  const task = service.store.get(id)!;
  const target =
    task.createdAt + task.plan.queueMs + Math.ceil(task.plan.runMs * fraction) + extraMs;
  if (target > service.clock.now()) service.clock.advance(target - service.clock.now());
}

export const video = (c: Client, id: string, key: string | null = KEYS.alice) =>
  c.call('GET', `/v1/videos/${id}`, { key });
export const wrapper = (c: Client, id: string, key: string | null = KEYS.alice) =>
  c.call('GET', `/v1/video/generations/${id}`, { key });
export const content = (c: Client, id: string, key: string | null = KEYS.alice, method = 'GET') =>
  c.call(method, `/v1/videos/${id}/content`, { key });
export const failing = (c: Client) => c.submit({ ...KITE, prompt: 'a storm [mock:fail]' });

/** Submits a task under `defect` and moves it just past completion; `task` is its OpenAI form then. */
export function completedUnder(defect: string) {
  const c = client([defect]);
  const id = c.submit();
  moveTo(c, id, 1, 1);
  return { c, id, task: video(c, id).body as TaskBody };
}

/** The fields the completed state's presence rule names that a task lacks. */
export const lacksWhenCompleted = (task: TaskBody) =>
  missingFields(task, lifecycle.presence.byStatus.completed!.fields);

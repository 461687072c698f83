// A front-end team's page, developing offline against videotask's mock: msw's setupWorker serves the
// same handlers as setupServer does in Node, to fetch and to videotask's own client. Bundled by
// esbuild (its browser build of videotask/mocks; videotask itself has no Node part).
import { setupWorker } from 'msw/browser';
import { VideoTaskClient } from 'videotask';
import { createHandlers, createMockService, OBSERVED_PROFILE } from 'videotask/mocks';

interface Task {
  id: string;
  status: string;
  error?: { code?: string };
}

// The manual clock: the page decides when time passes (createMockService({ speed: 50 }) runs by itself).
const service = createMockService({ clock: { mode: 'manual' }, seed: 1 });
// The service is the page's own origin here (a relative baseUrl is resolved against the page).
const worker = setupWorker(...createHandlers(service, { baseUrl: '/' }));
const headers = { authorization: 'Bearer sk-mock-alice', 'content-type': 'application/json' };

async function call(method: string, path: string, body?: unknown): Promise<Task> {
  const init: RequestInit = { method, headers };
  if (body !== undefined) init.body = JSON.stringify(body);
  return (await (await fetch(path, init)).json()) as Task;
}

/** Submits, then advances the clock 5 s at a time and records each status the task reports. */
async function walk(): Promise<{ id: string; statuses: string[] }> {
  const task = await call('POST', '/v1/videos', { model: 'video-pro-v1', prompt: 'a red kite' });
  const statuses = [task.status];
  while (!['completed', 'failed'].includes(statuses.at(-1)!) && statuses.length < 200) {
    service.clock.advance(5_000);
    const now = await call('GET', `/v1/videos/${task.id}`);
    if (now.status !== statuses.at(-1)) statuses.push(now.status);
  }
  return { id: task.id, statuses };
}

/** The typed client polls a task to its end, its waits moving the mock's clock; then reads its video. */
async function clientRun(): Promise<Record<string, unknown>> {
  const client = new VideoTaskClient({ baseUrl: location.origin, apiKey: 'sk-mock-alice' });
  const task = await client.submit({ model: 'video-pro-v1', prompt: 'a kite from the client' });
  const sleep = (ms: number) => Promise.resolve(service.clock.advance(ms));
  const { task: done } = await client.poll(task.id, { sleep, now: () => service.clock.now() });
  const video = await client.content(done.id);
  const bytes = new Uint8Array(await new Response(video.body).arrayBuffer());
  return {
    status: done.status,
    bytes: bytes.length,
    box: String.fromCharCode(...bytes.subarray(4, 8)),
  };
}

async function run(): Promise<Record<string, unknown>> {
  await worker.start({ quiet: true, onUnhandledRequest: 'bypass' });
  const client = await clientRun();
  const { id, statuses } = await walk();
  const content = await fetch(`/v1/videos/${id}/content`, { headers });
  const bytes = new Uint8Array(await content.arrayBuffer());
  // A control operation from the page: force the next task to fail (the mock's control API, in-process).
  const doomed = await call('POST', '/v1/videos', { model: 'video-pro-v1', prompt: 'a storm' });
  const forced = await fetch(`/__mock/tasks/${doomed.id}/outcome`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ outcome: 'fail', code: 'ContentPolicy' }),
  });
  service.clock.advance(10 * 60_000);
  const failed = await call('GET', `/v1/videos/${doomed.id}`);
  // A learned profile is an object in a page (the core reads no file): the built-in observed one, with
  // task IDs of another form.
  const learned = createMockService({
    clock: { mode: 'manual' },
    profile: { ...OBSERVED_PROFILE, taskId: { form: 'vtsk-{alnum:32}' } },
  });
  const submitted = learned.handle({
    method: 'POST',
    path: '/v1/videos',
    query: '',
    headers,
    origin: location.origin,
    body: new TextEncoder().encode(JSON.stringify({ model: 'video-pro-v1', prompt: 'a red kite' })),
  });
  return {
    learnedId: (JSON.parse(submitted.body as string) as Task).id,
    client,
    statuses,
    contentType: content.headers.get('content-type'),
    bytes: bytes.length,
    box: String.fromCharCode(...bytes.subarray(4, 8)),
    forced: forced.status,
    failed: failed.status,
    failedCode: failed.error?.code,
  };
}

run().then(
  (result) => (document.body.dataset['result'] = JSON.stringify(result)),
  (error: unknown) => (document.body.dataset['error'] = String(error)),
);

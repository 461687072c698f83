import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual, promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { sampleVideo, snapshot } from '../../mocks/index.ts';
import { listDefects, resolveDefects } from '../../mocks/defects/registry.ts';
import {
  canTransition,
  fromWrapperStatus,
  missingFields,
  serviceContract,
  type VideoStatus,
} from '../../src/spec/index.ts';
import type { SeenResponse } from '../helpers/conformance.ts';
import { coreClient } from '../helpers/core-client.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const { lifecycle, validators } = serviceContract();
const SEED = 'defects';
const KEYS = {
  alice: 'sk-mock-alice',
  bob: 'sk-mock-bob',
  vip: 'sk-mock-vip',
  none: null,
} as const;
/** The second family's native path (§4.5), bound in these sessions. */
const NATIVE = '/alt-video/api/v3/contents/generations/tasks';
const NATIVE_BODY = { model: 'alt-video-v2', content: [{ type: 'text', text: 'a red kite' }] };
const MISSING = `task_${'x'.repeat(32)}`;
const KITE = { model: 'video-pro-v1', prompt: 'a red kite' };

type Task = {
  id: string;
  task_id?: string;
  object: string;
  model: string;
  status: string;
  progress: number;
  created_at?: number;
  completed_at?: number;
  metadata?: { url?: string };
  error?: unknown;
};
type Wrapper = {
  code: string;
  message: string;
  data: {
    task_id: string;
    status: string;
    progress: string;
    result_url?: string;
    fail_reason: string;
  };
};

// ---------------------------------------------------------------------------------------------------
// A client with the defects, and a way to move one task to a point of its own plan.

type Client = ReturnType<typeof coreClient>;

function client(defects: readonly string[] = []): Client {
  return coreClient({ seed: SEED, defects, familyBound: true });
}

/** Moves the clock to `fraction` of the task's run (0: it starts running, 1: it finishes) plus `extraMs`. */
function moveTo({ service }: Client, id: string, fraction: number, extraMs = 0): void {
  const task = service.store.get(id)!;
  const target =
    task.createdAt + task.plan.queueMs + Math.ceil(task.plan.runMs * fraction) + extraMs;
  if (target > service.clock.now()) service.clock.advance(target - service.clock.now());
}

const video = (c: Client, id: string, key: string | null = KEYS.alice) =>
  c.call('GET', `/v1/videos/${id}`, { key });
const wrapper = (c: Client, id: string, key: string | null = KEYS.alice) =>
  c.call('GET', `/v1/video/generations/${id}`, { key });
const content = (c: Client, id: string, key: string | null = KEYS.alice, method = 'GET') =>
  c.call(method, `/v1/videos/${id}/content`, { key });
const failing = (c: Client) => c.submit({ ...KITE, prompt: 'a storm [mock:fail]' });

// ---------------------------------------------------------------------------------------------------
// The fixed scripted session: every response, labelled, with what the test needs to know of it.

type Op =
  | 'submit'
  | 'submit-empty'
  | 'video'
  | 'wrapper'
  | 'content'
  | 'content-head'
  | 'content-range'
  | 'models'
  | 'native';
type Who = keyof typeof KEYS;

interface Step {
  readonly label: string;
  readonly op: Op;
  readonly who: Who;
  /** A (completes), B (fails), or a task that does not exist. */
  readonly task?: 'A' | 'B' | 'missing' | undefined;
  /** The task's state when asked (from the mock's own store). */
  readonly status?: VideoStatus | undefined;
  /** How long the task had been finished when asked (ms), if it had. */
  readonly sinceFinishMs?: number | undefined;
  readonly response: SeenResponse;
}

function session(defects: readonly string[]): Step[] {
  const c = client(defects);
  const { service, call } = c;
  const steps: Step[] = [];
  const ids: Partial<Record<'A' | 'B' | 'missing', string>> = { missing: MISSING };
  const lastTaskId = () => [...service.store.values()].at(-1)!.id;
  const record = (
    label: string,
    op: Op,
    who: Who,
    task: Step['task'],
    send: (id: string) => SeenResponse,
  ) => {
    const record =
      task === undefined || task === 'missing' ? undefined : service.store.get(ids[task]!);
    const snap =
      record === undefined
        ? undefined
        : snapshot(record.createdAt, record.plan, service.clock.now());
    const response = send(task === undefined ? '' : ids[task]!);
    steps.push({
      label,
      op,
      who,
      task,
      status: snap?.status,
      sinceFinishMs:
        snap?.finishedAt === undefined ? undefined : service.clock.now() - snap.finishedAt,
      response,
    });
  };

  record('alice submits A', 'submit', 'alice', undefined, () =>
    call('POST', '/v1/video/generations', { body: KITE }),
  );
  ids.A = lastTaskId();
  record('alice submits B (fails)', 'submit', 'alice', undefined, () =>
    call('POST', '/v1/videos', {
      body: { ...KITE, prompt: 'a storm' },
      headers: { 'x-mock-scenario': 'fail' },
    }),
  );
  ids.B = lastTaskId();

  const start = service.clock.now();
  const planOf = (t: 'A' | 'B') => service.store.get(ids[t]!)!.plan;
  const end = (t: 'A' | 'B') => planOf(t).queueMs + planOf(t).runMs;
  const a = planOf('A');
  const points = [
    1_000,
    ...[0.25, 0.5, 0.75].map((f) => a.queueMs + Math.round(a.runMs * f)),
    end('A') + 1_000,
    end('B') + 1_000,
    Math.max(end('A'), end('B')) + 60_000,
  ];
  for (const at of [...new Set(points)].sort((x, y) => x - y)) {
    service.clock.advance(start + at - service.clock.now());
    const when = `t+${(at / 1000).toFixed(1)}s`;
    for (const t of ['A', 'B'] as const) {
      record(`${when} alice polls ${t}`, 'video', 'alice', t, (id) => video(c, id));
      record(`${when} alice polls ${t} (wrapper)`, 'wrapper', 'alice', t, (id) => wrapper(c, id));
      record(`${when} alice downloads ${t}`, 'content', 'alice', t, (id) => content(c, id));
    }
  }
  record('HEAD content of A', 'content-head', 'alice', 'A', (id) =>
    content(c, id, KEYS.alice, 'HEAD'),
  );
  record('range of A', 'content-range', 'alice', 'A', (id) =>
    call('GET', `/v1/videos/${id}/content`, { headers: { range: 'bytes=100-199' } }),
  );
  record('bob polls A', 'video', 'bob', 'A', (id) => video(c, id, KEYS.bob));
  record('bob polls A (wrapper)', 'wrapper', 'bob', 'A', (id) => wrapper(c, id, KEYS.bob));
  record('bob downloads A', 'content', 'bob', 'A', (id) => content(c, id, KEYS.bob));
  record('bob downloads B', 'content', 'bob', 'B', (id) => content(c, id, KEYS.bob));
  record('alice polls a missing task', 'video', 'alice', 'missing', (id) => video(c, id));
  record('alice downloads a missing task', 'content', 'alice', 'missing', (id) => content(c, id));
  record('no key polls A', 'video', 'none', 'A', (id) => video(c, id, null));
  record('no key polls A (wrapper)', 'wrapper', 'none', 'A', (id) => wrapper(c, id, null));
  record('no key downloads A', 'content', 'none', 'A', (id) => content(c, id, null));
  record('no key lists models', 'models', 'none', undefined, () =>
    call('GET', '/v1/models', { key: null }),
  );
  record('no key submits', 'submit', 'none', undefined, () =>
    call('POST', '/v1/video/generations', { body: KITE, key: null }),
  );
  record('alice lists models', 'models', 'alice', undefined, () => call('GET', '/v1/models'));
  // The native path: a task of its own, looked at while it runs (its mixed body comes last).
  const vip = { key: KEYS.vip };
  record('vip submits on the native path', 'native', 'vip', undefined, () =>
    call('POST', NATIVE, { ...vip, body: NATIVE_BODY }),
  );
  const native = service.store.get(lastTaskId())!;
  service.clock.advance(native.plan.queueMs + native.plan.runMs / 2);
  record('vip polls its running native task', 'native', 'vip', undefined, () =>
    call('GET', `${NATIVE}/${native.id}`, vip),
  );
  // Last: a defect that accepts them creates tasks, which draws from the seeded random.
  record('alice submits an empty prompt', 'submit-empty', 'alice', undefined, () =>
    call('POST', '/v1/video/generations', { body: { ...KITE, prompt: '' } }),
  );
  record('alice submits a blank prompt', 'submit-empty', 'alice', undefined, () =>
    call('POST', '/v1/videos', { body: { ...KITE, prompt: '  \n ' } }),
  );
  record('vip submits a native body with a prompt mixed in', 'native', 'vip', undefined, () =>
    call('POST', NATIVE, { ...vip, body: { ...NATIVE_BODY, prompt: 'a red kite' } }),
  );
  return steps;
}

// ---------------------------------------------------------------------------------------------------
// Per defect: which steps of the session it changes, and the violation it shows.

const own = (s: Step) => s.who === 'alice' && (s.task === 'A' || s.task === 'B');
const ok = (s: Step) => s.response.status === 200;
const query = (s: Step) => own(s) && (s.op === 'video' || s.op === 'wrapper');
const running = (s: Step) =>
  s.status === 'queued' || s.status === 'in_progress' || s.status === 'unknown';
const downloads = (s: Step) => own(s) && s.op.startsWith('content');

type Case = readonly [name: string, changes: (s: Step) => boolean, shows: () => void];

const CASES: readonly Case[] = [
  [
    'task-id-mismatch',
    (s) => ok(s) && (s.op === 'submit' || (own(s) && s.op === 'video')),
    () => {
      const c = client(['task-id-mismatch']);
      const submitted = c.call('POST', '/v1/video/generations', { body: KITE }).body as Task;
      expect(submitted.task_id).not.toBe(submitted.id);
      expect((video(c, submitted.id).body as Task).task_id).not.toBe(submitted.id);
    },
  ],
  [
    'wrong-object',
    (s) => ok(s) && (s.op === 'submit' || (own(s) && s.op === 'video')),
    () => {
      const c = client(['wrong-object']);
      expect((c.call('POST', '/v1/video/generations', { body: KITE }).body as Task).object).toBe(
        'video.generation',
      );
    },
  ],
  [
    'model-not-echoed',
    (s) => ok(s) && (s.op === 'submit' || (own(s) && s.op === 'video')),
    () => {
      const c = client(['model-not-echoed']);
      const submitted = c.call('POST', '/v1/video/generations', { body: KITE }).body as Task;
      expect(submitted.model).toBe('video-pro-v1-20260101');
      expect((video(c, submitted.id).body as Task).model).not.toBe(KITE.model);
    },
  ],
  [
    'submission-without-created-at',
    (s) => ok(s) && s.op === 'submit',
    () => {
      const c = client(['submission-without-created-at']);
      const submitted = c.call('POST', '/v1/video/generations', { body: KITE }).body as Task;
      expect(missingFields(submitted, lifecycle.presence.onSubmission.fields)).toEqual([
        'created_at',
      ]);
      expect((video(c, submitted.id).body as Task).created_at).toBeTypeOf('number');
    },
  ],
  [
    'completed-without-completed-at',
    (s) => s.op === 'video' && own(s) && s.status === 'completed',
    () => {
      const c = client(['completed-without-completed-at']);
      const id = c.submit();
      moveTo(c, id, 1, 1);
      const task = video(c, id).body as Task;
      expect(task.status).toBe('completed');
      expect(missingFields(task, lifecycle.presence.byStatus.completed!.fields)).toEqual([
        'completed_at',
      ]);
    },
  ],
  [
    'completed-without-url',
    (s) => s.op === 'video' && own(s) && s.status === 'completed',
    () => {
      const c = client(['completed-without-url']);
      const id = c.submit();
      moveTo(c, id, 1, 1);
      const task = video(c, id).body as Task;
      expect(missingFields(task, lifecycle.presence.byStatus.completed!.fields)).toEqual([
        'metadata.url',
      ]);
      expect((wrapper(c, id).body as Wrapper).data.result_url).toMatch(/^http/);
    },
  ],
  [
    'failed-without-error',
    (s) => s.op === 'video' && own(s) && s.status === 'failed',
    () => {
      const c = client(['failed-without-error']);
      const id = failing(c);
      moveTo(c, id, 1, 1);
      const task = video(c, id).body as Task;
      expect(task.status).toBe('failed');
      expect(missingFields(task, lifecycle.presence.byStatus.failed!.fields)).toEqual([
        'error',
        'error.code',
        'error.message',
      ]);
    },
  ],
  [
    'completed-at-duration',
    (s) => s.op === 'video' && own(s) && s.status === 'completed',
    () => {
      const c = client(['completed-at-duration']);
      const id = c.submit();
      moveTo(c, id, 1, 1);
      const task = video(c, id).body as Task;
      expect(task.completed_at!).toBeLessThan(task.created_at!);
    },
  ],
  [
    'status-regression',
    (s) => query(s) && s.status === 'completed' && s.sinceFinishMs! >= 30_000,
    () => {
      const c = client(['status-regression']);
      const id = c.submit();
      moveTo(c, id, 1, 1);
      expect((video(c, id).body as Task).status).toBe('completed');
      moveTo(c, id, 1, 30_000);
      const again = video(c, id).body as Task;
      expect(again.status).toBe('in_progress');
      expect(canTransition(lifecycle, 'completed', again.status as VideoStatus)).toBe(false);
      expect((wrapper(c, id).body as Wrapper).data.status).toBe('IN_PROGRESS');
      expect(again.progress).toBe(100); // nothing else regresses: progress does not go down
    },
  ],
  [
    'progress-decrease',
    (s) => query(s) && s.status === 'in_progress',
    () => {
      const c = client(['progress-decrease']);
      const id = c.submit();
      moveTo(c, id, 0.25);
      const first = [
        (video(c, id).body as Task).progress,
        parseInt((wrapper(c, id).body as Wrapper).data.progress, 10),
      ];
      moveTo(c, id, 0.75);
      const later = [
        (video(c, id).body as Task).progress,
        parseInt((wrapper(c, id).body as Wrapper).data.progress, 10),
      ];
      expect(later[0]!).toBeLessThan(first[0]!);
      expect(later).toEqual([later[0], later[0]]); // both forms tell the same (wrong) story
    },
  ],
  [
    'progress-out-of-range',
    (s) => query(s) && s.status === 'in_progress',
    () => {
      const c = client(['progress-out-of-range']);
      const id = c.submit();
      moveTo(c, id, 0.5);
      expect((video(c, id).body as Task).progress).toBeGreaterThan(100);
      expect((wrapper(c, id).body as Wrapper).data.progress).toBe('150%');
    },
  ],
  [
    'progress-incomplete',
    (s) => query(s) && s.status === 'completed',
    () => {
      const c = client(['progress-incomplete']);
      const id = c.submit();
      moveTo(c, id, 1, 1);
      const task = video(c, id).body as Task;
      expect(task).toMatchObject({ status: 'completed', progress: 99 });
      expect((wrapper(c, id).body as Wrapper).data.progress).toBe('99%');
    },
  ],
  [
    'undocumented-status',
    (s) => s.op === 'video' && own(s) && s.status === 'in_progress',
    () => {
      const c = client(['undocumented-status']);
      const id = c.submit();
      moveTo(c, id, 0.5);
      const response = video(c, id);
      expect((response.body as Task).status).toBe('processing');
      expect(lifecycle.states.values).not.toContain('processing');
      expect(
        validators
          .response('getVideo', 200)!
          .body(response.contentType)!
          .validate(response.body)
          .errors.join(),
      ).toMatch(/status/);
      expect((wrapper(c, id).body as Wrapper).data.status).toBe('IN_PROGRESS');
    },
  ],
  [
    'wrapper-disagrees',
    (s) => s.op === 'wrapper' && own(s) && s.status === 'completed',
    () => {
      const c = client(['wrapper-disagrees']);
      const id = c.submit();
      moveTo(c, id, 1, 1);
      expect((video(c, id).body as Task).status).toBe('completed');
      const { data } = wrapper(c, id).body as Wrapper;
      expect(fromWrapperStatus(lifecycle, data.status)).toBe('in_progress');
      expect(data).toMatchObject({ progress: '99%' });
      expect(data.result_url).toBeUndefined();
    },
  ],
  [
    'wrapper-progress-format',
    (s) => s.op === 'wrapper' && own(s) && ok(s),
    () => {
      const c = client(['wrapper-progress-format']);
      const id = c.submit();
      moveTo(c, id, 0.5);
      const { data } = wrapper(c, id).body as Wrapper;
      expect(data.progress).toBe(String((video(c, id).body as Task).progress));
      expect(data.progress).not.toMatch(/^\d+%$/);
    },
  ],
  [
    'wrapper-failure-status',
    (s) => s.op === 'wrapper' && own(s) && s.status === 'failed',
    () => {
      const c = client(['wrapper-failure-status']);
      const id = failing(c);
      moveTo(c, id, 1, 1);
      expect((wrapper(c, id).body as Wrapper).data).toMatchObject({
        status: 'ERROR',
        fail_reason: '',
      });
    },
  ],
  [
    'wrapper-success-message',
    (s) => s.op === 'wrapper' && own(s) && ok(s),
    () => {
      const c = client(['wrapper-success-message']);
      expect(wrapper(c, c.submit()).body as Wrapper).toMatchObject({
        code: 'success',
        message: 'ok',
      });
    },
  ],
  [
    'upstream-id-exposed',
    (s) => s.op === 'wrapper' && own(s) && ok(s),
    () => {
      const c = client(['upstream-id-exposed']);
      const id = c.submit();
      const { data } = wrapper(c, id).body as Wrapper;
      expect(data.task_id).not.toBe(id);
      expect(data.task_id).toMatch(/^cgt-\d{8}-[0-9a-f]{12}$/);
      expect(wrapper(c, data.task_id).status).toBe(404); // and it does not query the task
    },
  ],
  [
    'content-before-completion',
    (s) => downloads(s) && running(s),
    () => {
      const c = client(['content-before-completion']);
      const id = c.submit();
      expect((video(c, id).body as Task).status).toBe('queued');
      const response = content(c, id);
      expect(response).toMatchObject({ status: 200, contentType: 'video/mp4' });
      expect(
        Buffer.from(response.body as Uint8Array).equals(Buffer.from(sampleVideo().bytes)),
      ).toBe(true);
      expect(content(c, id, KEYS.alice, 'HEAD')).toEqual({
        status: 200,
        contentType: 'video/mp4',
        body: undefined,
      });
    },
  ],
  [
    'content-as-json',
    (s) => downloads(s) && s.status === 'completed',
    () => {
      const c = client(['content-as-json']);
      const id = c.submit();
      moveTo(c, id, 1, 1);
      const response = content(c, id);
      expect(response.status).toBe(200);
      expect(response.contentType).toMatch(/^application\/json/);
      expect((response.body as { url: string }).url).toBe(
        (video(c, id).body as Task).metadata!.url,
      );
    },
  ],
  [
    'missing-task-200',
    (s) => s.op === 'content' && s.task === 'missing',
    () => {
      const c = client(['missing-task-200']);
      const response = content(c, MISSING);
      expect(response.status).toBe(200);
      expect(response.contentType).not.toMatch(/json/);
      expect((response.body as Uint8Array).byteLength).toBe(0);
    },
  ],
  [
    'foreign-content',
    (s) => s.op === 'content' && s.who === 'bob',
    () => {
      const c = client(['foreign-content']);
      const id = c.submit();
      moveTo(c, id, 1, 1);
      expect(content(c, id, KEYS.bob)).toMatchObject({ status: 200, contentType: 'video/mp4' });
      expect(c.service.store.get(id)!.owner).toBe('alice');
    },
  ],
  [
    'foreign-status',
    (s) => s.op === 'video' && s.who === 'bob',
    () => {
      const c = client(['foreign-status']);
      const id = c.submit();
      expect(video(c, id, KEYS.bob)).toMatchObject({ status: 200, body: { id } });
      expect(wrapper(c, id, KEYS.bob).status).toBe(404);
    },
  ],
  [
    'auth-skipped',
    (s) => s.who === 'none' && ((s.op === 'video' && s.task === 'A') || s.op === 'models'),
    () => {
      const c = client(['auth-skipped']);
      const id = c.submit();
      expect(video(c, id, null)).toMatchObject({ status: 200, body: { id } });
      expect(c.call('GET', '/v1/models', { key: null }).status).toBe(200);
    },
  ],
  [
    'empty-prompt-accepted',
    (s) => s.op === 'submit-empty',
    () => {
      const c = client(['empty-prompt-accepted']);
      for (const prompt of ['', '   '])
        expect(c.call('POST', '/v1/video/generations', { body: { ...KITE, prompt } }).status).toBe(
          200,
        );
      expect(c.service.store.size).toBe(2);
    },
  ],
  [
    'non-json-error',
    (s) => s.response.status >= 400,
    () => {
      const c = client(['non-json-error']);
      const id = c.submit();
      for (const response of [content(c, id), content(c, MISSING), video(c, id, null)]) {
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.contentType).toMatch(/^text\/plain/);
        expect(response.body).toBeTypeOf('string'); // the message, as text
        expect((): unknown => JSON.parse(response.body as string)).toThrow();
      }
    },
  ],
  [
    'gateway-raw-upstream-body',
    (s) => s.op === 'wrapper' && own(s) && ok(s),
    () => {
      const c = client(['gateway-raw-upstream-body']);
      const id = c.submit();
      const { data } = wrapper(c, id).body as Wrapper & { data: { data: { id: string } } };
      expect(data.task_id).toBe(id);
      expect(data.data.id).toMatch(/^cgt-\d{8}-[0-9a-f]{12}$/);
    },
  ],
  [
    'gateway-result-url-fallback',
    (s) => s.op === 'wrapper' && own(s) && s.status === 'failed',
    () => {
      const c = client(['gateway-result-url-fallback']);
      const id = failing(c);
      moveTo(c, id, 1, 1);
      const { data } = wrapper(c, id).body as Wrapper;
      expect(data.result_url).toBe(data.fail_reason);
      expect(data.result_url).not.toMatch(/^https?:/);
    },
  ],
  [
    'gateway-timeout-sweep',
    (s) => (s.op === 'video' || s.op === 'wrapper') && own(s) && s.status === 'failed',
    () => {
      const c = client(['gateway-timeout-sweep']);
      const id = failing(c);
      moveTo(c, id, 1, 1);
      expect((video(c, id).body as Task).error).toBeUndefined();
      expect((wrapper(c, id).body as Wrapper).data.fail_reason).toMatch(/^任务超时/);
    },
  ],
  [
    'gateway-drops-task-id',
    (s) => s.op === 'video' && own(s) && ok(s),
    () => {
      const c = client(['gateway-drops-task-id']);
      const id = c.submit();
      moveTo(c, id, 1, 1);
      const task = video(c, id).body as Task;
      expect(task.status).toBe('completed');
      expect(missingFields(task, lifecycle.presence.byStatus.completed!.fields)).toEqual([
        'task_id',
      ]);
    },
  ],
  [
    'range-from-start',
    (s) => s.op === 'content-range',
    () => {
      const c = client(['range-from-start']);
      const id = c.submit();
      moveTo(c, id, 1, 1);
      const part = c.call('GET', `/v1/videos/${id}/content`, {
        headers: { range: 'bytes=100-199' },
      });
      expect(part.status).toBe(206);
      expect(part.body).toEqual(sampleVideo().bytes.subarray(0, 100));
    },
  ],
  [
    'native-openai-statuses',
    (s) => s.label === 'vip polls its running native task',
    () => {
      const c = client(['native-openai-statuses']);
      const id = (
        c.call('POST', NATIVE, { key: KEYS.vip, body: NATIVE_BODY }).body as { id: string }
      ).id;
      moveTo(c, id, 0.5);
      expect(c.call('GET', `${NATIVE}/${id}`, { key: KEYS.vip }).body).toMatchObject({
        status: 'in_progress',
      });
    },
  ],
  [
    'native-mixed-accepted',
    (s) => s.label === 'vip submits a native body with a prompt mixed in',
    () => {
      const c = client(['native-mixed-accepted']);
      const mixed = { ...NATIVE_BODY, prompt: 'a red kite', metadata: { duration: 5 } };
      expect(c.call('POST', NATIVE, { key: KEYS.vip, body: mixed }).status).toBe(200);
      expect(c.service.store.size).toBe(1);
    },
  ],
];

// ---------------------------------------------------------------------------------------------------

describe('defect catalogue', () => {
  const defects = listDefects();

  it('has a case in this table for every defect, and only those', () => {
    expect(CASES.map(([name]) => name).sort()).toEqual(defects.map((d) => d.name).sort());
  });

  it('has at least 15 defects with unique kebab-case names', () => {
    expect(defects.length).toBeGreaterThanOrEqual(15);
    const names = defects.map((d) => d.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it.each(defects.map((d) => [d.name, d] as const))(
    '%s names rules that exist and a one-line description',
    (_name, defect) => {
      expect(defect.breaks.length).toBeGreaterThan(0);
      for (const id of defect.breaks)
        expect(lifecycle.rules.has(id), `unknown rule ${id}`).toBe(true);
      expect(defect.description).toMatch(/^[^\n]{10,140}$/);
      expect(defect.before ?? defect.after).toBeDefined();
    },
  );

  it('refuses an unknown defect naming --list-defects', () => {
    expect(() => resolveDefects(['nope'])).toThrow(/"nope".*--list-defects/);
  });

  it('lists one line per defect from the CLI and exits 0', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['bin/videotask.js', 'mock', '--list-defects'],
      { cwd: ROOT },
    );
    const lines = stdout.trimEnd().split('\n');
    expect(lines.map((line) => /^(\S+) {2,}(\S.*)$/.exec(line)?.slice(1))).toEqual(
      defects.map((d) => [d.name, d.description]),
    );
  });
});

describe('each defect', () => {
  const clean = session([]);

  it('runs a session in which the clean mock keeps the contract it is compared against', () => {
    expect(clean.map((s) => `${s.label}: ${s.response.status}`)).toContain(
      'alice submits an empty prompt: 400',
    );
    expect(new Set(clean.filter((s) => s.task === 'A').map((s) => s.status))).toEqual(
      new Set(['queued', 'in_progress', 'completed']),
    );
    expect(new Set(clean.filter((s) => s.task === 'B').map((s) => s.status))).toEqual(
      new Set(['queued', 'in_progress', 'failed']),
    );
    expect(clean.some((s) => s.status === 'completed' && s.sinceFinishMs! >= 30_000)).toBe(true);
  });

  it.each(CASES)('%s shows its broken behaviour', (_name, _changes, shows) => shows());

  it.each(CASES)('%s changes nothing else in a scripted session', (name, changes) => {
    const broken = session([name]);
    expect(broken.map((s) => s.label)).toEqual(clean.map((s) => s.label));
    const changed = broken
      .filter((s, i) => !isDeepStrictEqual(s.response, clean[i]!.response))
      .map((s) => s.label);
    const expected = clean.filter(changes).map((s) => s.label);
    expect(expected.length, 'the session exercises the defect').toBeGreaterThan(0);
    expect(changed).toEqual(expected);
  });
});

// The fixed scripted session every defect is compared in, and the predicates that pick its steps.
import { snapshot } from '../../../mocks/core/plan/snapshot.ts';
import type { VideoStatus } from '../../../src/spec/index.ts';
import type { SeenResponse } from '../../helpers/conformance.ts';
import {
  client,
  content,
  FILE_UPLOAD,
  KEYS,
  KITE,
  MISSING,
  NATIVE,
  NATIVE_BODY,
  video,
  wrapper,
} from './client.ts';
// The fixed scripted session: every response, labelled, with what the test needs to know of it.

export type Op =
  | 'submit'
  | 'submit-empty'
  | 'submit-incomplete'
  | 'submit-refused'
  | 'video'
  | 'wrapper'
  | 'content'
  | 'content-head'
  | 'content-range'
  | 'models'
  | 'native';
export type Who = keyof typeof KEYS;

export interface Step {
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

export function session(defects: readonly string[]): Step[] {
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
  record('alice submits without a model', 'submit-incomplete', 'alice', undefined, () =>
    call('POST', '/v1/videos', { body: { prompt: KITE.prompt } }),
  );
  record(
    'limited submits a model its token may not use',
    'submit-refused',
    'limited',
    undefined,
    () => call('POST', '/v1/video/generations', { body: KITE, key: KEYS.limited }),
  );
  record('vip uploads a reference file (multipart)', 'submit-refused', 'vip', undefined, () =>
    call('POST', '/v1/videos', { ...vip, ...FILE_UPLOAD }),
  );
  return steps;
}

// ---------------------------------------------------------------------------------------------------
// Per defect: which steps of the session it changes, and the violation it shows.

export const own = (s: Step) => s.who === 'alice' && (s.task === 'A' || s.task === 'B');
export const ok = (s: Step) => s.response.status === 200;
export const query = (s: Step) => own(s) && (s.op === 'video' || s.op === 'wrapper');
export const running = (s: Step) =>
  s.status === 'queued' || s.status === 'in_progress' || s.status === 'unknown';
export const downloads = (s: Step) => own(s) && s.op.startsWith('content');

export type Case = readonly [name: string, changes: (s: Step) => boolean, shows: () => void];

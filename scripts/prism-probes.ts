import {
  BOAT,
  KITE,
  MISSING_TASK,
  VIP,
  control,
  form,
  query,
  scenario,
  submit,
  task,
  type Probe,
} from './prism-probe.ts';
import { CONTROL, INVALID, REFUSALS } from './prism-probes-errors.ts';

const ALT = { model: 'alt-video-v2', prompt: 'p' };
const IMAGE = { type: 'image_url', image_url: { url: 'https://x.test/b.png' } };
const BOB = { key: 'sk-mock-bob' };
const DIRECT = { via: 'direct' } as const;
const DOCUMENTED = { profile: 'documented' } as const;
const OBSERVED = { profile: 'observed' } as const;

/** Submissions that build the tasks later probes query; the clock then moves ten simulated minutes. */
const SETUP: Probe[] = [
  submit('submit, generations path', 'createVideoGeneration', KITE, 200, { save: 'done' }),
  submit(
    'submit with §2.1 fields and metadata',
    'createVideo',
    {
      ...KITE,
      image: 'https://x.test/a.png',
      metadata: { duration: 5, ratio: '16:9', generate_audio: false },
    },
    200,
    { save: 'done2' },
  ),
  submit('submit, stuck (stays in_progress)', 'createVideo', KITE, 200, {
    ...scenario('stuck'),
    save: 'running',
  }),
  submit('submit, fails', 'createVideoGeneration', KITE, 200, {
    ...scenario('fail:QuotaExceeded'),
    save: 'failed',
  }),
  submit('submit, flaky queries', 'createVideo', KITE, 200, {
    ...scenario('flaky:1'),
    save: 'flaky',
  }),
  submit('second family while unbound: the upstream refuses', 'createVideo', ALT, 400, {
    key: VIP,
  }),
  submit('native path while unbound: no channel', 'createPluginTask', BOAT, 503, { key: VIP }),
  control('bind the second family', 'setMockFamily', {}, 200, {
    body: { bound: true },
  }),
  submit(
    'second family, bound',
    'createVideo',
    {
      model: 'alt-video-v2-fast',
      prompt: 'p',
      metadata: { duration: 4, resolution: '720p', content: [IMAGE] },
    },
    200,
    { key: VIP },
  ),
  submit(
    'native submission, bound',
    'createPluginTask',
    { ...BOAT, duration: 5, ratio: '16:9' },
    200,
    { key: VIP, save: 'boat' },
  ),
  submit('multipart (what the openai SDK sends)', 'createVideo', undefined, 200, {
    ...OBSERVED,
    ...form([
      ['model', 'video-pro-v1'],
      ['prompt', 'a kite'],
      ['seconds', '4'],
      ['size', '720x1280'],
    ]),
  }),
  control('move the clock ten minutes', 'advanceMockClock', {}, 200, {
    body: { ms: 600_000 },
  }),
];

/** Both query forms and the native form in every state, missing and foreign tasks. */
const QUERIES: Probe[] = [
  query('OpenAI form, completed', 'getVideo', task('done'), 200, { save: 'done' }),
  query('wrapper, completed', 'getVideoGeneration', task('done'), 200),
  query('OpenAI form, in_progress', 'getVideo', task('running'), 200),
  query('wrapper, in_progress', 'getVideoGeneration', task('running'), 200),
  query('OpenAI form, failed', 'getVideo', task('failed'), 200),
  query('wrapper, failed', 'getVideoGeneration', task('failed'), 200),
  query('flaky: a temporary 503 (§7)', 'getVideo', task('flaky'), 503),
  query('flaky: the wrapper too', 'getVideoGeneration', task('flaky'), 503),
  query('native query, succeeded', 'getPluginTask', task('boat'), 200, { key: VIP }),
  query('native query, missing', 'getPluginTask', MISSING_TASK, 404, { key: VIP }),
  query('native query of a primary-family task', 'getPluginTask', task('done'), 404),
  query('missing task, OpenAI form', 'getVideo', MISSING_TASK, 404, DOCUMENTED),
  query('missing task, wrapper', 'getVideoGeneration', MISSING_TASK, 404, DOCUMENTED),
  query('missing task, OpenAI form (the gateway: 400)', 'getVideo', MISSING_TASK, 400, OBSERVED),
  query(
    'missing task, wrapper (the gateway: 400)',
    'getVideoGeneration',
    MISSING_TASK,
    400,
    OBSERVED,
  ),
  query("another user's task, OpenAI form (§5)", 'getVideo', task('done'), 404, {
    ...BOB,
    ...DOCUMENTED,
  }),
  query("another user's task, wrapper (§5)", 'getVideoGeneration', task('done'), 404, {
    ...BOB,
    ...DOCUMENTED,
  }),
];

/** Content (§4.4): before completion, failed, missing, foreign, bytes, ranges, HEAD, redirects. */
const CONTENT: Probe[] = [
  query('content before completion', 'getVideoContent', task('running'), 400),
  query('content of a failed task', 'getVideoContent', task('failed'), 400),
  query('content of a missing task', 'getVideoContent', MISSING_TASK, 404),
  query("content of another user's task", 'getVideoContent', task('done'), 404, BOB),
  query('content, completed: the bytes', 'getVideoContent', task('done'), 200, {
    via: 'direct',
    ...DOCUMENTED,
  }),
  query(
    'content, completed: status and headers',
    'getVideoContent',
    task('done2'),
    200,
    DOCUMENTED,
  ),
  query('content, a range', 'getVideoContent', task('done'), 206, {
    headers: { range: 'bytes=0-99' },
    ...DOCUMENTED,
  }),
  query('content, a range outside the video', 'getVideoContent', task('done'), 416, {
    headers: { range: 'bytes=999999-' },
    ...DOCUMENTED,
  }),
  // Prism's forwarder follows redirects itself, so a 302 is seen only directly.
  query('content, redirected (--content-redirect)', 'getVideoContent', task('done'), 302, {
    via: 'direct',
    ...OBSERVED,
  }),
  query('HEAD content, completed', 'headVideoContent', task('done'), 200, {
    ...DOCUMENTED,
  }),
  query(
    'HEAD content with Range (ignored, RFC 9110 §14.2)',
    'headVideoContent',
    task('done'),
    200,
    { headers: { range: 'bytes=0-99' }, ...DOCUMENTED },
  ),
  query('HEAD content, redirected', 'headVideoContent', task('done'), 302, {
    ...DIRECT,
    ...OBSERVED,
  }),
  // Prism parses a HEAD error's JSON content type as a body, finds none and answers 500 itself.
  query('HEAD content before completion', 'headVideoContent', task('running'), 400, DIRECT),
  query('HEAD content of a missing task', 'headVideoContent', MISSING_TASK, 404, DIRECT),
];

/** Every request of the review, in order. */
export const PROBES: readonly Probe[] = [
  ...SETUP,
  ...QUERIES,
  ...CONTENT,
  ...REFUSALS,
  ...INVALID,
  ...CONTROL,
];

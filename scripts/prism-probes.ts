import {
  BOAT,
  KITE,
  MISSING,
  NATIVE,
  VIP,
  content,
  control,
  form,
  native,
  query,
  scenario,
  submit,
  video,
  wrapper,
  type Probe,
} from './prism-probe.ts';
import { CONTROL, INVALID, REFUSALS } from './prism-probes-errors.ts';

const ALT = { model: 'alt-video-v2', prompt: 'p' };
const IMAGE = { type: 'image_url', image_url: { url: 'https://x.test/b.png' } };
const BOB = { key: 'sk-mock-bob' };
const HEAD = { method: 'HEAD' };
const DIRECT_HEAD = { method: 'HEAD', via: 'direct' } as const;
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
  control('bind the second family', 'setMockFamily', ['PUT', '/__mock/family'], 200, {
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
  control(
    'move the clock ten minutes',
    'advanceMockClock',
    ['POST', '/__mock/clock/advance'],
    200,
    {
      body: { ms: 600_000 },
    },
  ),
];

/** Both query forms and the native form in every state, missing and foreign tasks. */
const QUERIES: Probe[] = [
  query('OpenAI form, completed', 'getVideo', video('done'), 200, { save: 'done' }),
  query('wrapper, completed', 'getVideoGeneration', wrapper('done'), 200),
  query('OpenAI form, in_progress', 'getVideo', video('running'), 200),
  query('wrapper, in_progress', 'getVideoGeneration', wrapper('running'), 200),
  query('OpenAI form, failed', 'getVideo', video('failed'), 200),
  query('wrapper, failed', 'getVideoGeneration', wrapper('failed'), 200),
  query('flaky: a temporary 503 (§7)', 'getVideo', video('flaky'), 503),
  query('flaky: the wrapper too', 'getVideoGeneration', wrapper('flaky'), 503),
  query('native query, succeeded', 'getPluginTask', native('boat'), 200, { key: VIP }),
  query('native query, missing', 'getPluginTask', `${NATIVE}/${MISSING}`, 404, { key: VIP }),
  query('native query of a primary-family task', 'getPluginTask', native('done'), 404),
  query('missing task, OpenAI form', 'getVideo', `/v1/videos/${MISSING}`, 404, DOCUMENTED),
  query(
    'missing task, wrapper',
    'getVideoGeneration',
    `/v1/video/generations/${MISSING}`,
    404,
    DOCUMENTED,
  ),
  query(
    'missing task, OpenAI form (the gateway: 400)',
    'getVideo',
    `/v1/videos/${MISSING}`,
    400,
    OBSERVED,
  ),
  query(
    'missing task, wrapper (the gateway: 400)',
    'getVideoGeneration',
    `/v1/video/generations/${MISSING}`,
    400,
    OBSERVED,
  ),
  query("another user's task, OpenAI form (§5)", 'getVideo', video('done'), 404, {
    ...BOB,
    ...DOCUMENTED,
  }),
  query("another user's task, wrapper (§5)", 'getVideoGeneration', wrapper('done'), 404, {
    ...BOB,
    ...DOCUMENTED,
  }),
];

/** Content (§4.4): before completion, failed, missing, foreign, bytes, ranges, HEAD, redirects. */
const CONTENT: Probe[] = [
  query('content before completion', 'getVideoContent', content('running'), 400),
  query('content of a failed task', 'getVideoContent', content('failed'), 400),
  query('content of a missing task', 'getVideoContent', `/v1/videos/${MISSING}/content`, 404),
  query("content of another user's task", 'getVideoContent', content('done'), 404, BOB),
  query('content, completed: the bytes', 'getVideoContent', content('done'), 200, {
    via: 'direct',
    ...DOCUMENTED,
  }),
  query(
    'content, completed: status and headers',
    'getVideoContent',
    content('done2'),
    200,
    DOCUMENTED,
  ),
  query('content, a range', 'getVideoContent', content('done'), 206, {
    headers: { range: 'bytes=0-99' },
    ...DOCUMENTED,
  }),
  query('content, a range outside the video', 'getVideoContent', content('done'), 416, {
    headers: { range: 'bytes=999999-' },
    ...DOCUMENTED,
  }),
  // Prism's forwarder follows redirects itself, so a 302 is seen only directly.
  query('content, redirected (--content-redirect)', 'getVideoContent', content('done'), 302, {
    via: 'direct',
    ...OBSERVED,
  }),
  query('HEAD content, completed', 'headVideoContent', content('done'), 200, {
    ...HEAD,
    ...DOCUMENTED,
  }),
  query(
    'HEAD content with Range (ignored, RFC 9110 §14.2)',
    'headVideoContent',
    content('done'),
    200,
    { ...HEAD, headers: { range: 'bytes=0-99' }, ...DOCUMENTED },
  ),
  query('HEAD content, redirected', 'headVideoContent', content('done'), 302, {
    ...DIRECT_HEAD,
    ...OBSERVED,
  }),
  // Prism parses a HEAD error's JSON content type as a body, finds none and answers 500 itself.
  query('HEAD content before completion', 'headVideoContent', content('running'), 400, DIRECT_HEAD),
  query(
    'HEAD content of a missing task',
    'headVideoContent',
    `/v1/videos/${MISSING}/content`,
    404,
    DIRECT_HEAD,
  ),
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

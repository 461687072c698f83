import * as P from './prism-probe.ts';

const ALT = { model: 'alt-video-v2', prompt: 'p' };
const IMAGE = { type: 'image_url', image_url: { url: 'https://x.test/b.png' } };
const DOCUMENTED = { profile: 'documented' } as const;
const OBSERVED = { profile: 'observed' } as const;

/** The catalog, and well-formed submissions the service refuses. */
export const REFUSALS: P.Probe[] = [
  P.query('catalog', 'listModels', {}, 200),
  P.query('catalog of a vip key, family bound', 'listModels', {}, 200, { key: P.VIP }),
  P.submit('unknown model: no channel', 'createVideo', { ...P.KITE, model: 'video-ultra' }, 503),
  P.submit('token without the model (§5)', 'createVideoGeneration', P.KITE, 403, {
    key: 'sk-mock-limited',
  }),
  P.submit('quota exhausted', 'createVideo', P.KITE, 403, { key: 'sk-mock-broke' }),
  P.submit(
    'duration outside the range',
    'createVideo',
    { ...P.KITE, metadata: { duration: 0 } },
    400,
  ),
  P.submit('seconds outside the range', 'createVideoGeneration', { ...P.KITE, seconds: '0' }, 400),
  P.submit(
    'a resolution the model does not offer',
    'createVideo',
    { ...ALT, model: 'alt-video-v2-fast', metadata: { resolution: '1080p' } },
    400,
    { key: P.VIP },
  ),
  P.submit(
    'an asset:// reference (§2.1)',
    'createVideo',
    { ...ALT, metadata: { content: [{ type: 'image_url', image_url: { url: 'asset://x' } }] } },
    400,
    { key: P.VIP },
  ),
  P.submit(
    'the upstream refuses with 500 (5XX)',
    'createVideo',
    P.KITE,
    500,
    P.scenario('fail-at-submit:500'),
  ),
  P.submit(
    'the upstream refuses with 502 (5XX)',
    'createVideoGeneration',
    P.KITE,
    502,
    P.scenario('fail-at-submit:502'),
  ),
  P.submit(
    'the upstream refuses with 409 (4XX, §7)',
    'createVideo',
    P.KITE,
    409,
    P.scenario('fail-at-submit:409'),
  ),
  P.submit('native: the upstream refuses with 504', 'createPluginTask', P.BOAT, 504, {
    key: P.VIP,
    ...P.scenario('fail-at-submit:504'),
  }),
  P.submit(
    'the upstream rate limit (429, §7)',
    'createVideo',
    P.KITE,
    429,
    P.scenario('rate-limit:3'),
  ),
  P.submit('an unknown scenario', 'createVideo', P.KITE, 400, P.scenario('explode')),
  P.submit('a bad scenario argument', 'createVideoGeneration', P.KITE, 400, P.scenario('flaky:0')),
];

const LENIENT = { via: 'lenient' } as const;
/** Deliberately invalid requests: a strict Prism would answer them itself, so they go through a lenient one. */
export const INVALID: P.Probe[] = [
  P.query('no key, catalog (§5)', 'listModels', {}, 401, { ...LENIENT, key: null }),
  P.query('bad key, query (§5)', 'getVideo', P.task('done'), 401, {
    ...LENIENT,
    key: 'sk-not-a-key',
  }),
  P.query('no key, content (§5)', 'getVideoContent', P.task('done'), 401, {
    ...LENIENT,
    key: null,
  }),
  P.query('bad key, native query', 'getPluginTask', P.task('boat'), 401, {
    ...LENIENT,
    key: 'sk-bad',
  }),
  P.submit('no key, submission (§5)', 'createVideo', P.KITE, 401, { ...LENIENT, key: null }),
  P.submit('empty prompt (§7)', 'createVideoGeneration', { ...P.KITE, prompt: '' }, 400, LENIENT),
  P.submit('blank prompt (§7)', 'createVideo', { ...P.KITE, prompt: '   ' }, 400, LENIENT),
  P.submit('no model', 'createVideo', { prompt: 'p' }, 400, LENIENT),
  P.submit('a prompt that is not text', 'createVideo', { ...P.KITE, prompt: 42 }, 400, LENIENT),
  P.submit(
    'a duration that is not a number',
    'createVideoGeneration',
    { ...P.KITE, metadata: { duration: 'five' } },
    400,
    LENIENT,
  ),
  P.submit('not JSON (text/plain)', 'createVideo', undefined, 415, {
    ...LENIENT,
    headers: { 'content-type': 'text/plain' },
    raw: 'a kite',
  }),
  P.submit('multipart where JSON is required (§4.1, §5)', 'createVideo', undefined, 415, {
    ...LENIENT,
    ...DOCUMENTED,
    ...P.form([
      ['model', 'video-pro-v1'],
      ['prompt', 'p'],
    ]),
  }),
  P.submit('multipart without a prompt', 'createVideo', undefined, 400, {
    ...LENIENT,
    ...OBSERVED,
    ...P.form([['model', 'video-pro-v1']]),
  }),
  P.submit(
    'a body over 1 MiB',
    'createVideoGeneration',
    { ...P.KITE, prompt: 'x'.repeat(1_100_000) },
    413,
    LENIENT,
  ),
  P.submit(
    'native: the OpenAI form mixed in (§4.5)',
    'createPluginTask',
    { ...P.BOAT, prompt: 'boat' },
    400,
    { ...LENIENT, key: P.VIP },
  ),
  P.submit(
    'native: no text item',
    'createPluginTask',
    { model: 'alt-video-v2', content: [IMAGE] },
    400,
    { ...LENIENT, key: P.VIP },
  ),
  P.submit('native: a plugin name nobody declares', 'createPluginTask', P.BOAT, 404, {
    ...LENIENT,
    key: P.VIP,
    params: { plugin_name: 'no-plugin' },
  }),
  P.submit('invalid JSON (Prism hangs on it)', 'createVideo', undefined, 400, {
    via: 'direct',
    headers: { 'content-type': 'application/json' },
    raw: '{"model": "video-pro-v1",',
  }),
];

/** The temporary address the completed task `done` answered (`metadata.url`), changed by `change`. */
const artifact = (change: (url: URL) => void = () => undefined) => ({
  path: (ids: P.Ids) => {
    const url = new URL(ids['done.url']!, 'http://mock');
    change(url);
    return `${url.pathname}${url.search}`;
  },
});
/** The control API and the temporary result addresses (mock-control.yaml). */
export const CONTROL: P.Probe[] = [
  P.control('health', 'getMockHealth', {}, 200),
  P.control('clock', 'getMockClock', {}, 200),
  P.control("alice's tasks", 'listMockTasks', {}, 200, {
    search: '?owner=alice',
  }),
  P.control('one task', 'getMockTask', P.task('running'), 200),
  P.control('a missing task', 'getMockTask', P.MISSING_TASK, 404),
  P.control('scenarios', 'listMockScenarios', {}, 200),
  P.control('family', 'getMockFamily', {}, 200),
  P.control('force an outcome', 'forceMockTaskOutcome', P.task('running'), 200, {
    body: { outcome: 'fail', code: 'Forced' },
  }),
  P.control('force a finished task', 'forceMockTaskOutcome', P.task('done'), 409, {
    body: { outcome: 'fail' },
  }),
  P.control('a bad clock move', 'advanceMockClock', {}, 400, {
    via: 'direct',
    body: { ms: -1 },
  }),
  P.control('temporary address', 'getMockArtifact', {}, 200, { ...artifact(), ...DOCUMENTED }),
  P.control('temporary address, a range', 'getMockArtifact', {}, 206, {
    ...artifact(),
    headers: { range: 'bytes=0-9' },
    ...DOCUMENTED,
  }),
  P.control('temporary address, forged', 'getMockArtifact', {}, 403, {
    ...artifact((u) => u.searchParams.set('sig', '0'.repeat(32))),
    ...DOCUMENTED,
  }),
  P.control('move the clock two hours', 'advanceMockClock', {}, 200, {
    body: { ms: 7_200_000 },
  }),
  P.control('temporary address, expired', 'getMockArtifact', {}, 410, {
    ...artifact(),
    ...DOCUMENTED,
  }),
];

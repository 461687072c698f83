// Task IDs carry their plan under the deployment's secret (decisions/010): any process with the secret
// answers any task; a forged, altered, foreign or pre-reset ID is exactly a missing task; no two tasks
// get one ID.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BASE62_ALPHABET } from '../../mocks/core/task-id/base62.ts';
import { BUILT_IN_MODELS } from '../../mocks/core/keys/catalog.ts';
import { DEFAULT_TIMING, drawPlan } from '../../mocks/core/plan/plan.ts';
import { PROFILES } from '../../mocks/core/profile/profiles.ts';
import { createRandom } from '../../mocks/core/plan/random.ts';
import { EXTRAS_CODE, SCENARIO_CODES } from '../../mocks/core/plan/scenario-codes.ts';
import { SCENARIOS } from '../../mocks/core/plan/scenarios.ts';
import { PROFILE_ORDER, planRandom } from '../../mocks/core/task-blueprint.ts';
import { deploymentKeys } from '../../mocks/core/signing/secret.ts';
import { hmacSha256 } from '../../mocks/core/signing/sha256.ts';
import { TASK_ID_PATTERN, TaskIdCodec } from '../../mocks/core/task-id/task-id-codec.ts';
import {
  TASK_ID_LAYOUT,
  TIME_BOUND_MS,
  type TaskIdFields,
} from '../../mocks/core/task-id/task-id-layout.ts';
import {
  MAX_SHARES,
  WHOLE_SHARE,
  drawIn,
  shareWithin,
  type TaskIdShare,
} from '../../mocks/core/task-id/task-id-share.ts';
import { coreClient, coreRequest } from '../helpers/core-client.ts';

const keys = deploymentKeys('test-secret', hmacSha256);
const codec = new TaskIdCodec({ mac: keys.idMac, stream: keys.idStream });
const max = (field: string) => 2 ** TASK_ID_LAYOUT.find((f) => f.field === field)!.bits - 1;

const fieldsArbitrary = fc.record({
  createdAt: fc.integer({ min: -TIME_BOUND_MS, max: TIME_BOUND_MS }),
  draw: fc.integer({ min: 0, max: max('draw') }),
  model: fc.integer({ min: 0, max: max('model') }),
  seconds: fc.integer({ min: 0, max: max('seconds') }),
  scenario: fc.integer({ min: 0, max: max('scenario') }),
  arg: fc.integer({ min: 0, max: max('arg') }),
  profile: fc.integer({ min: 0, max: max('profile') }),
  extras: fc.boolean(),
});

/**
 * Every route that names a task, as a caller gets it, as text: status, headers (but the request ID) and
 * body bytes, with the ID itself replaced.
 */
function routes(
  client: ReturnType<typeof coreClient>,
  id: string,
  key = 'sk-mock-alice',
): string[] {
  const content = `/v1/videos/${id}/content`;
  const calls: [string, string, string | undefined][] = [
    ['GET', `/v1/videos/${id}`, key],
    ['GET', `/v1/video/generations/${id}`, key],
    ['GET', content, key],
    ['HEAD', content, key],
    ['GET', `/alt-video/api/v3/contents/generations/tasks/${id}`, key],
    ['GET', `/__mock/tasks/${id}`, undefined],
  ];
  return calls.map(([method, path, k]) => {
    const r = client.service.handle(coreRequest(method, path, { key: k ?? null }));
    const shown = { ...r.headers, 'x-oneapi-request-id': '' };
    const body = typeof r.body === 'string' ? r.body : new TextDecoder().decode(r.body);
    return `${r.status} ${JSON.stringify(shown)} ${body}`.replaceAll(id, 'ID');
  });
}

describe('task IDs', () => {
  it('carry every field at any value of its range, in the gateway format', () => {
    fc.assert(
      fc.property(fieldsArbitrary, fc.string({ minLength: 1 }), fc.nat(), (fields, owner, gen) => {
        const id = codec.encode(fields, owner, gen);
        expect(id).toMatch(TASK_ID_PATTERN);
        expect(codec.fieldsFor(codec.open(id)!, owner, gen)).toEqual(fields);
        expect(codec.fieldsFor(codec.open(id)!, `${owner}x`, gen)).toBeUndefined();
        expect(codec.fieldsFor(codec.open(id)!, owner, gen + 1)).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  it('have room for the catalog, every profile and every scenario code', () => {
    expect(BUILT_IN_MODELS.length).toBeLessThanOrEqual(max('model') + 1);
    expect([...PROFILE_ORDER].sort()).toEqual(Object.keys(PROFILES).sort());
    expect(PROFILE_ORDER.length).toBeLessThanOrEqual(max('profile') + 1);
    const codes = SCENARIO_CODES.map((c) => c.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(Math.max(...codes)).toBeLessThan(EXTRAS_CODE);
    const planned = new Set(SCENARIOS.filter((s) => s.plan !== undefined).map((s) => s.name));
    for (const code of SCENARIO_CODES) expect(planned).toContain(code.scenario);
  });

  it('refuse a value outside a field’s range instead of wrapping it', () => {
    const fields: TaskIdFields = {
      createdAt: 0,
      draw: 0,
      model: 0,
      seconds: 0,
      scenario: 0,
      arg: 0,
      profile: 0,
      extras: false,
    };
    expect(() => codec.encode({ ...fields, seconds: 4096 }, 'alice', 0)).toThrow(/seconds/);
    expect(() => codec.encode({ ...fields, createdAt: TIME_BOUND_MS + 1 }, 'alice', 0)).toThrow(
      /createdAt/,
    );
  });

  it('answer a forged or altered ID exactly as a missing task, on every route', () => {
    const client = coreClient();
    const id = client.submit();
    client.service.clock.advance(600_000);
    const missing = routes(client, `task_${'0'.repeat(32)}`);
    expect(routes(client, id)[0]).toMatch(/^200 /);
    for (let i = 5; i < id.length; i++) {
      const other = BASE62_ALPHABET[(BASE62_ALPHABET.indexOf(id[i]!) + 1 + i) % 62]!;
      expect(routes(client, id.slice(0, i) + other + id.slice(i + 1))).toEqual(missing);
    }
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9A-Za-z]{32}$/), (digits) => {
        expect(routes(client, `task_${digits}`)).toEqual(missing);
      }),
      { numRuns: 200 },
    );
  });

  it("answer another user's task exactly as a missing one (§5)", () => {
    const client = coreClient();
    const id = client.submit(undefined, 'sk-mock-bob');
    const missing = routes(client, `task_${'1'.repeat(32)}`);
    expect(routes(client, id).slice(0, 5)).toEqual(missing.slice(0, 5));
  });

  it('are answered the same by any service with the secret, and by none without it', () => {
    const a = coreClient({ seed: 'a' });
    const replica = coreClient({ seed: 'b' }); // same secret and clock: another process of the deployment
    const stranger = coreClient({ secret: 'another' });
    const ids = [
      a.submit(),
      a.submit({ model: 'video-pro-v1', prompt: 'x [mock:fail:GenerationTimeout]' }),
    ];
    for (const step of [0, 3_000, 30_000, 600_000]) {
      for (const client of [a, replica, stranger]) client.service.clock.advance(step);
      for (const id of ids) {
        expect(routes(replica, id)).toEqual(routes(a, id));
        expect(routes(stranger, id)).toEqual(routes(stranger, `task_${'2'.repeat(32)}`));
      }
    }
    expect(replica.service.store.size).toBe(0); // it lists only what it created itself
  });

  it('are not predictable from the seed: a random secret gives other IDs for the same seed', () => {
    const [a, b] = [coreClient({ secret: undefined }), coreClient({ secret: undefined })];
    expect(a.submit()).not.toBe(b.submit());
  });

  it('stop answering after a reset, even when asked by their owner', () => {
    const client = coreClient();
    const id = client.submit();
    client.call('POST', '/__mock/reset', { key: null });
    expect(client.call('GET', `/v1/videos/${id}`).status).toBe(404);
  });

  it('keep what does not fit in the extras, which a replica needs from the shared state', () => {
    const a = coreClient();
    const replica = coreClient();
    const odd = a.submit({
      model: 'video-pro-v1',
      prompt: 'x [mock:fail:MyOwnCode]',
      metadata: { duration: 2.5 },
    });
    const plain = a.submit({ model: 'video-pro-v1', prompt: 'x [mock:unknown:2.5]' });
    expect([...a.service.shared.extras.keys()]).toEqual([odd]);
    expect(replica.call('GET', `/v1/videos/${plain}`).status).toBe(200);
    expect(replica.call('GET', `/v1/videos/${odd}`).status).toBe(404);
    replica.service.apply({ op: 'extras', task: odd, extras: a.service.shared.extras.get(odd)! });
    a.service.clock.advance(600_000);
    replica.service.clock.advance(600_000);
    expect(routes(replica, odd)).toEqual(routes(a, odd));
    expect(replica.call('GET', `/v1/videos/${odd}`).body).toMatchObject({
      error: { code: 'MyOwnCode' },
    });
  });

  it('reproduce each scenario and failure-rate outcome exactly', () => {
    const scenarios = [
      'succeed',
      'fail',
      'fail:InternalServiceError',
      'fail:X-1',
      'slow',
      'stuck',
      'unknown',
      'unknown:0.1',
      'unknown:7.77',
      'flaky',
      'flaky:9',
      'lost-answer',
      'lost-answer:0.5',
    ];
    const a = coreClient({ failureRate: 0.5 });
    const replica = coreClient({ failureRate: 0 }); // the failure rate at submission is in the ID
    const ids = [
      ...scenarios.map((s) => a.submit({ model: 'video-pro-v1', prompt: `x [mock:${s}]` })),
      ...Array.from({ length: 10 }, () => a.submit()),
    ];
    for (const [task, extras] of a.service.shared.extras)
      replica.service.apply({ op: 'extras', task, extras });
    for (const id of ids)
      expect(replica.service.store.get(id)?.plan).toEqual(a.service.store.get(id)!.plan);
  });
});

describe('task IDs are unique (decisions/010)', () => {
  it('differ for the same facts of another user or another reset generation', () => {
    fc.assert(
      fc.property(fieldsArbitrary, fc.string({ minLength: 1 }), fc.nat(), (fields, owner, gen) => {
        const id = codec.encode(fields, owner, gen);
        expect(codec.encode(fields, `${owner}x`, gen)).not.toBe(id);
        expect(codec.encode(fields, owner, gen + 1)).not.toBe(id);
        expect(codec.encode({ ...fields, draw: fields.draw ^ 1 }, owner, gen)).not.toBe(id);
      }),
      { numRuns: 300 },
    );
  });

  it('draw plans in a share of the draws that spread as plans over all of them', () => {
    // A worker's or replica's share (decisions/016) must not change the queue and run times: the
    // largest gap between their distribution and the timing's uniform one stays within the
    // Kolmogorov–Smirnov bound for 2,000 distinct draws (1.95/√n, p = 0.001), and the failure rate
    // holds, down to the smallest share (`--replica 256/256 --workers 256`: 2,040 draws).
    const shares: TaskIdShare[] = [
      WHOLE_SHARE,
      { index: 1, of: 3 },
      shareWithin({ index: 255, of: 256 }, { index: 256, of: 257 }),
    ];
    const withinBound = (values: number[], [low, high]: readonly [number, number]) => {
      const n = values.length;
      const sorted = values.sort((a, b) => a - b);
      const gaps = sorted.map((v, i) => Math.abs((v - low) / (high - low) - (i + 0.5) / n));
      return Math.max(...gaps) < 1.95 / Math.sqrt(n);
    };
    for (const share of shares) {
      const random = createRandom('spread');
      const draws = new Set<number>();
      while (draws.size < 2000) draws.add(drawIn(share, random));
      const plans = [...draws].map((draw) =>
        drawPlan({ random: planRandom(draw), timing: DEFAULT_TIMING, failureRate: 0.3 }),
      );
      const succeeded = plans.filter((p) => p.outcome === 'succeed');
      const what = JSON.stringify(share);
      expect(
        withinBound(
          plans.map((p) => p.queueMs),
          DEFAULT_TIMING.queueMs,
        ),
        what,
      ).toBe(true);
      expect(
        withinBound(
          succeeded.map((p) => p.runMs),
          DEFAULT_TIMING.runMs,
        ),
        what,
      ).toBe(true);
      expect(Math.abs(1 - succeeded.length / plans.length - 0.3), what).toBeLessThan(0.03);
    }
  });

  it('refuse a submission with 503 once its share is full at one instant, creating nothing', () => {
    // The smallest share (1,024 draws), one user, one body, one mock millisecond: far past any real use.
    const { service } = coreClient({ taskIdShare: { index: 7, of: MAX_SHARES } });
    const post = () =>
      service.handle(
        coreRequest('POST', '/v1/videos', {
          headers: { 'x-request-id': 'same' },
          body: { model: 'video-pro-v1', prompt: 'a red kite' },
        }),
      );
    const ids = new Set<string>();
    let answer = post();
    for (; answer.status === 200; answer = post())
      ids.add((JSON.parse(answer.body as string) as { id: string }).id);
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('1');
    expect(JSON.parse(answer.body as string)).toMatchObject({
      error: { code: 'temporarily_unavailable' },
    });
    expect(ids.size).toBeGreaterThan(900);
    expect(service.store.size).toBe(ids.size);
    expect(service.submissionsByClientRequestId.get('same')).toBe(ids.size);
    service.clock.advance(1);
    expect(post().status).toBe(200);
  });

  it('refuse a share that is not one', () => {
    for (const taskIdShare of [
      { index: 3, of: 3 },
      { index: -1, of: 3 },
      { index: 0, of: 0 },
      { index: 0.5, of: 2 },
      { index: 0, of: MAX_SHARES + 1 },
    ])
      expect(() => coreClient({ taskIdShare })).toThrow(/taskIdShare: (index|of) must be/);
  });
});

import { describe, expect, it } from 'vitest';
import type { CoreRequest, CoreResponse } from '../../mocks/core/http/http-types.ts';
import { createRandom } from '../../mocks/core/plan/random.ts';
import { documentFreedoms } from '../../src/spec/freedoms.ts';
import { describeDeployment, variationKey } from '../deployments/conforming/deployment.ts';
import {
  chosenDeployment,
  conformingDeployment,
  PLAYERS,
} from '../deployments/conforming/run-deployment.ts';
import { drawInputs } from '../deployments/conforming/run-inputs.ts';
import { conformingSeeds } from '../deployments/conforming/seeds.ts';
import { behind, TRANSPORT_PLAYERS } from '../deployments/conforming/transport-players.ts';

// The generator of conforming deployments (issue 31 item 2, decisions/042), its parts alone; the
// deployments themselves are judged by conforming.e2e.test.ts.
const ORIGIN = 'http://contract.test';
const request = (path: string, extra: Partial<CoreRequest> = {}): CoreRequest => ({
  method: 'GET',
  path,
  query: '',
  headers: {},
  origin: ORIGIN,
  ...extra,
});
const echo =
  (seen: CoreRequest[]) =>
  (r: CoreRequest): CoreResponse => {
    seen.push(r);
    return {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: `{"path":"${r.path}"}`,
    };
  };

describe('the seeds', () => {
  it.each([
    ['', 200],
    ['17', 1],
    ['1000-1009', 10],
    ['3, 17,40', 3],
  ])('CONFORMING_SEEDS=%j gives %i seeds', (given, count) => {
    expect(conformingSeeds(given)).toHaveLength(count);
  });

  it.each(['abc', '5-1', '1.5', '-3'])(
    'refuses CONFORMING_SEEDS=%s, saying how to write it',
    (given) => {
      expect(() => conformingSeeds(given)).toThrow(/CONFORMING_SEEDS/);
    },
  );
});

describe('a deployment drawn from a seed', () => {
  it('takes one variation of every freedom, never a pending one', () => {
    const freedoms = documentFreedoms();
    for (const seed of [1, 2, 3, 4, 5]) {
      const d = conformingDeployment(seed);
      expect(d.choices.map((c) => c.freedom)).toEqual(freedoms.map((f) => f.id));
      for (const { freedom, variation } of d.choices) {
        const v = freedoms
          .find((f) => f.id === freedom)!
          .variations.find((x) => x.id === variation)!;
        expect(v.pending, variationKey(freedom, variation)).toBeUndefined();
      }
    }
  });

  it('keeps to what it is allowed, and collects what its variations depart from and hide', () => {
    const d = conformingDeployment(7, {
      allow: (f, v) => f.id !== 'error-bodies' || v.id === 'problem-json',
      profiles: ['observed'],
    });
    expect(d.profile).toBe('observed');
    expect(d.choices.find((c) => c.freedom === 'error-bodies')?.variation).toBe('problem-json');
    expect(d.departs.has('errors.envelope')).toBe(true);
    const chosen = chosenDeployment({ 'task-timing': 'instant' });
    expect([...chosen.hides].sort()).toEqual(['in_progress', 'queued']);
    expect(describeDeployment(chosen)).toMatch(/^seed 0: profile=documented, base-url-path=root, /);
  });

  it('is the same for the same seed, and another for another', () => {
    for (const seed of [1, 2, 99]) {
      const [a, b] = [conformingDeployment(seed), conformingDeployment(seed)];
      expect(describeDeployment(a)).toEqual(describeDeployment(b));
    }
    expect(describeDeployment(conformingDeployment(1))).not.toEqual(
      describeDeployment(conformingDeployment(2)),
    );
  });

  it('has a player for every variation of the table', () => {
    const table = documentFreedoms().flatMap((f) =>
      f.variations.map((v) => variationKey(f.id, v.id)),
    );
    expect(Object.keys(PLAYERS).sort()).toEqual([...table].sort());
  });
});

describe('the run inputs drawn for a seed', () => {
  it('are the same for a seed, vary across seeds, and draw the budget of 2 for rate-limited deployments too', () => {
    const drawn = Array.from({ length: 200 }, (_, i) => conformingDeployment(i + 1)).map((d) => ({
      d,
      inputs: drawInputs(d),
    }));
    expect(drawInputs(drawn[0]!.d)).toEqual(drawn[0]!.inputs);
    const texts = new Set(drawn.map(({ inputs }) => inputs.text));
    for (const words of ['the full target', 'budget 2', 'tier free', 'no second key'])
      expect(
        [...texts].some((t) => t.includes(words)),
        words,
      ).toBe(true);
    const rateLimited = drawn.filter(({ d }) =>
      d.choices.some((c) => c.variation.startsWith('first-submission')),
    );
    expect(rateLimited.length).toBeGreaterThan(0);
    // A 429 takes no unit of the budget (issue 31 item 4): the CLI's default holds there too.
    expect(rateLimited.some(({ inputs }) => inputs.target.budget === 2)).toBe(true);
  });
});

describe('the layers between the suite and the service', () => {
  it('under a path prefix: strips it, tells the service its base, and answers nothing outside it', () => {
    const part = TRANSPORT_PLAYERS['base-url-path/path-prefix']!(createRandom(1));
    const seen: CoreRequest[] = [];
    const handle = behind(echo(seen), part.layers!);
    const prefix = new URL(part.target!.baseUrl!).pathname;
    expect(handle(request(`${prefix}/v1/models`)).status).toBe(200);
    expect(seen[0]).toMatchObject({ path: '/v1/models', origin: `${ORIGIN}${prefix}` });
    expect(handle(request('/v1/models')).status).toBe(404);
    expect(seen).toHaveLength(1);
  });

  it('task IDs of another form: the same one each time, mapped back on the way in', () => {
    const part = TRANSPORT_PLAYERS['task-id-form/uuid']!(createRandom(1));
    const id = 'task_Q2x7rB0pV4mN8sK1dF6hJ3gL9tY5wE2a';
    const seen: CoreRequest[] = [];
    const handle = behind((r) => {
      seen.push(r);
      return { status: 200, headers: { location: `/v1/videos/${id}` }, body: `{"id":"${id}"}` };
    }, part.layers!);
    const first = handle(request('/v1/videos'));
    const outward = (JSON.parse(String(first.body)) as { id: string }).id;
    expect(outward).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(first.headers['location']).toBe(`/v1/videos/${outward}`);
    handle(request(`/v1/videos/${outward}/content`));
    expect(seen[1]!.path).toBe(`/v1/videos/${id}/content`);
    expect(JSON.parse(String(handle(request('/x')).body))).toEqual({ id: outward });
  });

  it('the video two redirects away on another host, which asks the service with the last hop', () => {
    const part = TRANSPORT_PLAYERS['video-delivery/redirect-hops-other-host']!(createRandom(1));
    const seen: CoreRequest[] = [];
    const handle = behind(echo(seen), part.layers!);
    const first = handle(request('/v1/videos/t1/content'));
    expect(first.status).toBe(302);
    const hop = new URL(first.headers['location']!);
    expect(hop.origin).not.toBe(ORIGIN);
    const second = handle(request(hop.pathname, { origin: hop.origin }));
    expect(second.status).toBe(307);
    const last = new URL(second.headers['location']!);
    const range = { range: 'bytes=0-9' };
    const served = handle(
      request(last.pathname, { origin: last.origin, method: 'HEAD', headers: range }),
    );
    expect(served.status).toBe(200);
    expect(seen.at(-1)).toMatchObject({
      path: '/v1/videos/t1/content',
      method: 'HEAD',
      headers: range,
    });
  });
});

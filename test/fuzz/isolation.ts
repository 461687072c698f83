/**
 * Isolation (§5) as a property: random users (each with one or two random keys, plus the built-in
 * keys), random interleavings of submissions (both OpenAI paths and the native path, scenarios
 * sometimes), status queries in both forms, content downloads (GET, HEAD, Range), native-path queries
 * and catalog reads, with the manual clock moving randomly between them. No control API.
 *
 * Properties, checked on every operation:
 *  - every success answer names only tasks the caller's user owns (task IDs anywhere in the body or
 *    the Location header);
 *  - an attempt on another user's task answers exactly as a task that does not exist (status, headers
 *    and body, the ID replaced, the request id ignored) on every route;
 *  - the owner's view is not disturbed by others: a `flaky` task's 503s follow its owner's own queries only;
 *  - a refused submission creates no task; `/v1/models` lists exactly what the calling token may use.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { BUILT_IN_MODELS, SECOND_FAMILY_MODELS } from '../../mocks/core/catalog.ts';
import type { CoreResponse } from '../../mocks/core/http-types.ts';
import { createMockService, type MockService } from '../../mocks/core/service.ts';
import { BUILT_IN_TOKENS, type MockToken } from '../../mocks/core/tokens.ts';
import { MODEL_IDS } from './arbitraries.ts';
import { text, type FuzzStats } from './oracle.ts';
import { FUZZ_ORIGIN, missingId } from './world.ts';

export type IsoRoute =
  'video' | 'wrapper' | 'content' | 'content-head' | 'content-range' | 'native';

export type IsoOp =
  | {
      readonly kind: 'submit';
      readonly actor: number;
      readonly via: 'generations' | 'videos' | 'native';
      readonly model: string;
      readonly scenario: string | null;
      readonly advance: number;
    }
  /** `own`: one of the caller's user's tasks when it has any; else any task (mostly someone else's). */
  | {
      readonly kind: 'query';
      readonly actor: number;
      readonly route: IsoRoute;
      readonly own: boolean;
      readonly target: number;
      readonly advance: number;
    }
  | { readonly kind: 'models'; readonly actor: number; readonly advance: number };

export interface IsoUser {
  readonly name: string;
  readonly group: 'default' | 'vip';
  readonly models: readonly string[] | null;
  readonly keys: readonly string[];
}

export interface IsoSpec {
  readonly seed: number;
  readonly profile: 'documented' | 'observed';
  readonly familyBound: boolean;
  readonly contentRedirect: boolean;
  readonly users: readonly IsoUser[];
  readonly ops: readonly IsoOp[];
}

const advance = fc.oneof(
  { weight: 3, arbitrary: fc.constant(0) },
  { weight: 4, arbitrary: fc.nat(30_000) },
  { weight: 1, arbitrary: fc.integer({ min: 60_000, max: 400_000 }) },
);
/** Mostly the random users' keys (listed first), sometimes a built-in key. */
const actor = fc.oneof({ weight: 4, arbitrary: fc.nat(7) }, { weight: 1, arbitrary: fc.nat(20) });

const isoOp: fc.Arbitrary<IsoOp> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('submit' as const),
      actor,
      via: fc.constantFrom<'generations' | 'videos' | 'native'>('generations', 'videos', 'native'),
      /** Mostly a model the path serves (primary on the OpenAI paths, second family on the native one). */
      model: fc.oneof(
        { weight: 4, arbitrary: fc.constant('') },
        { weight: 1, arbitrary: fc.constantFrom(...MODEL_IDS) },
      ),
      scenario: fc.oneof(
        { weight: 4, arbitrary: fc.constant(null) },
        {
          weight: 3,
          arbitrary: fc.constantFrom(
            'fail',
            'flaky',
            'flaky:1',
            'flaky:3',
            'slow',
            'stuck',
            'unknown:2',
            'rate-limit',
            'fail-at-submit',
            'fail-at-submit:503',
          ),
        },
      ),
      advance,
    }),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('query' as const),
      actor,
      route: fc.constantFrom<IsoRoute>(
        'video',
        'wrapper',
        'content',
        'content-head',
        'content-range',
        'native',
      ),
      own: fc.boolean(),
      target: fc.nat(40),
      advance,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('models' as const), actor, advance }) },
);

export const isoSpec: fc.Arbitrary<IsoSpec> = fc.record({
  seed: fc.nat(1_000_000),
  profile: fc.constantFrom<'documented' | 'observed'>('documented', 'observed'),
  familyBound: fc.oneof(
    { weight: 3, arbitrary: fc.constant(true) },
    { weight: 1, arbitrary: fc.constant(false) },
  ),
  contentRedirect: fc.oneof(
    { weight: 3, arbitrary: fc.constant(false) },
    { weight: 1, arbitrary: fc.constant(true) },
  ),
  users: fc
    .uniqueArray(
      fc.record({
        // Built-in user names too: a random key of user "alice" shares sk-mock-alice's tasks (tasks belong to users).
        name: fc.constantFrom('alice', 'bob', 'carol', 'dave', 'erin', 'vip', 'u-1'),
        group: fc.constantFrom<'default' | 'vip'>('default', 'vip', 'vip'),
        models: fc.option(fc.subarray(MODEL_IDS, { minLength: 1 }), { nil: null, freq: 3 }),
        keys: fc.array(fc.stringMatching(/^[A-Za-z0-9_-]{4,24}$/), { minLength: 1, maxLength: 2 }),
      }),
      { minLength: 2, maxLength: 4, selector: (u) => u.name },
    )
    .map((users) =>
      users.map((u, i) => ({ ...u, keys: u.keys.map((k, j) => `sk-iso-${i}-${j}-${k}`) })),
    ),
  ops: fc.array(isoOp, { minLength: 5, maxLength: 40 }),
});

const encoder = new TextEncoder();
const TASK_ID = /task_[0-9A-Za-z]{32}/g;

function call(
  service: MockService,
  token: MockToken,
  method: string,
  path: string,
  extra: { body?: unknown; headers?: Record<string, string> } = {},
): CoreResponse {
  const headers: Record<string, string> = {
    authorization: `Bearer ${token.key}`,
    ...extra.headers,
  };
  let body: Uint8Array | undefined;
  if (extra.body !== undefined) {
    body = encoder.encode(JSON.stringify(extra.body));
    headers['content-type'] = 'application/json';
  }
  return service.handle({ method, path, query: '', headers, body, origin: FUZZ_ORIGIN });
}

function queryRoute(
  service: MockService,
  token: MockToken,
  route: IsoRoute,
  id: string,
): CoreResponse {
  switch (route) {
    case 'video':
      return call(service, token, 'GET', `/v1/videos/${id}`);
    case 'wrapper':
      return call(service, token, 'GET', `/v1/video/generations/${id}`);
    case 'content':
      return call(service, token, 'GET', `/v1/videos/${id}/content`);
    case 'content-head':
      return call(service, token, 'HEAD', `/v1/videos/${id}/content`);
    case 'content-range':
      return call(service, token, 'GET', `/v1/videos/${id}/content`, {
        headers: { range: 'bytes=0-99' },
      });
    case 'native':
      return call(service, token, 'GET', `/alt-video/api/v3/contents/generations/tasks/${id}`);
  }
}

function bodyText(response: CoreResponse): string {
  const { body } = response;
  return body === undefined
    ? ''
    : typeof body === 'string'
      ? body
      : Buffer.from(body).toString('latin1');
}

/** An answer with one ID replaced and the per-request id dropped: what "the same answer" compares. */
function normalized(response: CoreResponse, id: string): unknown {
  const scrub = (s: string) =>
    s
      .split(id)
      .join('<ID>')
      .replace(/\(request id: \d+\)/g, '(request id: <RID>)');
  const headers = Object.fromEntries(
    Object.entries(response.headers)
      .filter(([name]) => name !== 'x-oneapi-request-id')
      .map(([name, value]) => [name, scrub(value)]),
  );
  return {
    status: response.status,
    headers,
    body: response.body === undefined ? undefined : scrub(bodyText(response)),
  };
}

function expectedModels(token: MockToken, familyBound: boolean): string[] {
  return BUILT_IN_MODELS.filter(
    (m) =>
      m.groups.includes(token.group) &&
      (token.models === undefined || token.models.includes(m.id)) &&
      (m.family === 'primary' || familyBound),
  ).map((m) => m.id);
}

/** Runs one interleaving; throws naming the operation when a property fails. */
export function runIsolation(spec: IsoSpec, stats: FuzzStats): void {
  const tokens: MockToken[] = spec.users.flatMap((u) =>
    u.keys.map((key) => ({ key, user: u.name, group: u.group, models: u.models ?? undefined })),
  );
  const service = createMockService({
    clock: { mode: 'manual', start: Date.UTC(2026, 10, 22) },
    seed: spec.seed,
    profile: spec.profile,
    familyBound: spec.familyBound,
    contentRedirect: spec.contentRedirect,
    tokens,
  });
  const actors: MockToken[] = [...tokens, ...BUILT_IN_TOKENS];
  const owners = new Map<string, string>();
  const created: string[] = [];
  const flaky = new Map<string, { every: number; queries: number }>();

  spec.ops.forEach((op, step) => {
    if (op.advance > 0) service.clock.advance(op.advance);
    const token = actors[op.actor % actors.length]!;
    const fail = (problem: string, response: CoreResponse, more = ''): never => {
      throw new Error(
        `isolation: ${problem}\n  at operation ${step} ${JSON.stringify(op)} by ${token.key} (user ${token.user})\n  answer: ${response.status} ${JSON.stringify(response.headers)} ${text(bodyText(response))}${more}`,
      );
    };
    /** Every task a success answer names must be the caller's. */
    const ownOnly = (response: CoreResponse, allowNew?: string) => {
      if (response.status >= 400) return;
      const named = [
        ...`${bodyText(response)} ${response.headers['location'] ?? ''}`.matchAll(TASK_ID),
      ].map((m) => m[0]);
      for (const id of named)
        if (id !== allowNew && owners.get(id) !== token.user)
          fail(`a success answer names task ${id} of ${owners.get(id) ?? 'nobody'}`, response);
    };

    if (op.kind === 'models') {
      const response = call(service, token, 'GET', '/v1/models');
      const listed = (JSON.parse(bodyText(response)) as { data?: { id: string }[] }).data?.map(
        (m) => m.id,
      );
      const expected = expectedModels(token, spec.familyBound);
      if (response.status !== 200 || !isDeepStrictEqual(listed, expected))
        fail(
          `/v1/models lists ${JSON.stringify(listed)}, this token may use ${JSON.stringify(expected)}`,
          response,
        );
      stats.isolation.modelLists++;
      return;
    }

    if (op.kind === 'submit') {
      const headers: Record<string, string> =
        op.scenario === null ? {} : { 'x-mock-scenario': op.scenario };
      const model =
        op.model !== ''
          ? op.model
          : op.via === 'native'
            ? SECOND_FAMILY_MODELS[op.actor % SECOND_FAMILY_MODELS.length]!
            : op.actor % 2 === 0
              ? 'video-pro-v1'
              : 'video-lite-v1';
      const response =
        op.via === 'native'
          ? call(service, token, 'POST', '/alt-video/api/v3/contents/generations/tasks', {
              body: { model, content: [{ type: 'text', text: 'a kite' }] },
              headers,
            })
          : call(
              service,
              token,
              'POST',
              op.via === 'generations' ? '/v1/video/generations' : '/v1/videos',
              { body: { model, prompt: 'a kite' }, headers },
            );
      let id: string | undefined;
      stats.bump(stats.isolationStatuses, `submit ${response.status}`);
      if (response.status === 200) {
        stats.isolation.submissions++;
        id = (JSON.parse(bodyText(response)) as { id?: string }).id;
        if (typeof id !== 'string' || owners.has(id))
          fail(`the submission answered an ID that is not new: ${String(id)}`, response);
        owners.set(id!, token.user);
        created.push(id!);
        const every = op.scenario?.startsWith('flaky')
          ? Number(op.scenario.split(':')[1] ?? 2)
          : undefined;
        if (every !== undefined) flaky.set(id!, { every, queries: 0 });
      }
      ownOnly(response, id);
      if (service.store.size !== owners.size)
        fail(
          `the store holds ${service.store.size} tasks, ${owners.size} submissions succeeded`,
          response,
        );
      return;
    }

    const mine = op.own ? created.filter((t) => owners.get(t) === token.user) : [];
    const pool = mine.length > 0 ? mine : created;
    const id = pool.length === 0 ? missingId(op.target) : pool[op.target % pool.length]!;
    const owner = owners.get(id);
    const response = queryRoute(service, token, op.route, id);
    stats.bump(
      stats.isolationStatuses,
      `${owner === token.user ? 'own' : owner === undefined ? 'missing' : 'foreign'} ${op.route} ${response.status}`,
    );
    if (owner === token.user) {
      ownOnly(response);
      if (response.status < 400) stats.isolation.ownSuccesses++;
      const f = flaky.get(id);
      if (f !== undefined && (op.route === 'video' || op.route === 'wrapper')) {
        const expected503 = f.queries++ % f.every === 0;
        if ((response.status === 503) !== expected503)
          fail(
            `flaky task: the owner's status query ${f.queries} (every ${f.every}) answered ${response.status}: someone else's queries count`,
            response,
          );
      }
      return;
    }
    // Someone else's task (or none at all): the answer must be the one for a task that does not exist.
    let other = missingId(1000 + op.target);
    for (let n = 1; service.store.get(other) !== undefined; n++)
      other = missingId(1000 + op.target + n);
    const reference = queryRoute(service, token, op.route, other);
    if (!isDeepStrictEqual(normalized(response, id), normalized(reference, other)))
      fail(
        `${owner === undefined ? 'a missing' : `${owner}'s`} task answers unlike a missing one on ${op.route}`,
        response,
        `\n  missing task answers: ${reference.status} ${JSON.stringify(reference.headers)} ${text(bodyText(reference))}`,
      );
    if (owner !== undefined) stats.isolation.foreignAttempts++;
  });
  stats.cases.isolation += spec.ops.length;
}

export function fuzzIsolation(options: { seed: number; runs: number; stats: FuzzStats }): void {
  const { seed, runs, stats } = options;
  try {
    fc.assert(
      fc.property(isoSpec, (spec) => runIsolation(spec, stats)),
      { seed, numRuns: runs, includeErrorInReport: true },
    );
  } catch (error) {
    throw new Error(
      `fuzz isolation failed (FUZZ_SEED=${seed}; operations so far: ${stats.cases.isolation}; replay with FUZZ_SEED=${seed})\n${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}

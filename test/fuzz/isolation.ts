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
import { SECOND_FAMILY_MODELS } from '../../mocks/core/keys/catalog.ts';
import type { CoreResponse } from '../../mocks/core/http/http-types.ts';
import { createMockService } from '../../mocks/core/service/service.ts';
import { BUILT_IN_TOKENS, type MockToken } from '../../mocks/core/keys/tokens.ts';
import {
  bodyText,
  call,
  expectedModels,
  normalized,
  queryRoute,
  TASK_ID,
} from './isolation-calls.ts';
import { isoSpec, type IsoSpec } from './isolation-spec.ts';
import { text, type FuzzStats } from './oracle.ts';
import { missingId } from './call-parts.ts';

export {
  isoSpec,
  type IsoOp,
  type IsoRoute,
  type IsoSpec,
  type IsoUser,
} from './isolation-spec.ts';

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
        `isolation: ${problem}\n  at operation ${step} ${JSON.stringify(op)} by ` +
          `${token.key} (user ${token.user})\n  answer: ${response.status} ` +
          `${JSON.stringify(response.headers)} ${text(bodyText(response))}${more}`,
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
            `flaky task: the owner's status query ${f.queries} (every ${f.every}) ` +
              `answered ${response.status}: someone else's queries count`,
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
        `\n  missing task answers: ${reference.status} ` +
          `${JSON.stringify(reference.headers)} ${text(bodyText(reference))}`,
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
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(
      `fuzz isolation failed (FUZZ_SEED=${seed}; operations so far: ${stats.cases.isolation}; ` +
        `replay with FUZZ_SEED=${seed})\n${message}`,
      { cause: error },
    );
  }
}

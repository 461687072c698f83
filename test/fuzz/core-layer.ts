// The core fuzz layer: `createMockService(...).handle(request)` in-process, a fresh world per run.
import fc from 'fast-check';
import type { CoreRequest, CoreResponse } from '../../mocks/core/http/http-types.ts';
import { callSpec, clockStep, worldSpec, type CallSpec, type WorldSpec } from './arbitraries.ts';
import { failure, REQUEST_TIMEOUT_MS, show } from './fuzz-support.ts';
import { checkExchange, text, type Exchange, type FuzzStats } from './oracle.ts';
import { nodeHeaders } from './node-headers.ts';
import { FUZZ_ORIGIN, FuzzWorld } from './world.ts';
export interface CoreStep {
  readonly advance: number;
  readonly call: CallSpec;
  /** As a host says when it stopped reading an oversize body. */
  readonly bodyTooLarge: boolean;
  readonly remoteAddress: string | null;
}

export interface CoreCase {
  readonly world: WorldSpec;
  readonly steps: readonly CoreStep[];
}

export const coreCase: fc.Arbitrary<CoreCase> = fc.record({
  world: worldSpec,
  steps: fc.array(
    fc.record({
      advance: clockStep,
      call: callSpec(8),
      bodyTooLarge: fc.oneof(
        { weight: 20, arbitrary: fc.constant(false) },
        { weight: 1, arbitrary: fc.constant(true) },
      ),
      remoteAddress: fc.oneof(
        {
          weight: 8,
          arbitrary: fc.constantFrom<string | null>(null, '127.0.0.1', '::1', '::ffff:127.0.0.1'),
        },
        { weight: 1, arbitrary: fc.constantFrom('10.0.0.7', '::ffff:10.0.0.1', '', '127') },
      ),
    }),
    { minLength: 1, maxLength: 8 },
  ),
});

/** Runs one core case; throws with the exchange when a property fails. */
export function runCoreCase(c: CoreCase, stats: FuzzStats): void {
  const world = FuzzWorld.create(c.world);
  const { service } = world;
  for (const step of c.steps) {
    if (step.advance > 0) service.clock.advance(step.advance);
    const call = world.resolve(step.call);
    const request: CoreRequest = {
      method: call.method,
      path: call.path,
      query: call.query,
      headers: nodeHeaders(call.headers),
      body: call.body,
      origin: FUZZ_ORIGIN,
      remoteAddress: step.remoteAddress ?? undefined,
      bodyTooLarge: step.bodyTooLarge,
    };
    const started = performance.now();
    let response: CoreResponse;
    try {
      response = service.handle(request);
    } catch (error) {
      throw new Error(`handle threw ${(error as Error).stack}\n  request: ${show(call)}`, {
        cause: error,
      });
    }
    const ms = performance.now() - started;
    stats.cases.core++;
    const body =
      response.body === undefined
        ? undefined
        : typeof response.body === 'string'
          ? Buffer.from(response.body)
          : response.body;
    const exchange: Exchange = {
      layer: 'core',
      method: request.method,
      path: request.path,
      query: request.query,
      headers: request.headers,
      body: request.body,
      status: response.status,
      responseHeaders: response.headers,
      responseBody: body,
      hostLevel: false,
    };
    const problems = checkExchange(service, exchange, stats);
    if (ms > REQUEST_TIMEOUT_MS) problems.push(`took ${Math.round(ms)} ms`);
    if (problems.length > 0)
      throw new Error(
        `${problems.join('\n  ')}\n  request: ${show(call)}\n  answer: ${response.status} ${text(body)}`,
      );
  }
  const health = service.handle(world.healthRequest());
  if (health.status !== 200)
    throw new Error(`health check after the case answered ${health.status}: ${text(health.body)}`);
}

export function fuzzCore(options: { seed: number; runs: number; stats: FuzzStats }): void {
  const { seed, runs, stats } = options;
  try {
    fc.assert(
      fc.property(coreCase, (c) => runCoreCase(c, stats)),
      { seed, numRuns: runs, includeErrorInReport: true },
    );
  } catch (error) {
    throw failure('core', seed, stats, error);
  }
}

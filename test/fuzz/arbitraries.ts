/**
 * fast-check generators for the mock's fuzzers (test/fuzz/*.test.ts, scripts/fuzz.ts). A generated
 * call is abstract: it names a route template and refers to tasks by position ("a task of the caller",
 * "a task of someone else"); `FuzzWorld.resolve` turns it into a concrete request against the tasks that
 * exist at that moment, so a shrunk case still means the same thing. This file assembles a call from
 * the parts its neighbours generate (path, headers, body) and re-exports what the fuzzers use.
 */
import fc from 'fast-check';
import { bodyFor } from './body-arbitraries.ts';
import type { CallSpec } from './call-types.ts';
import { NEAR_MISSES, ROUTE_TEMPLATES, SUBMIT_TEMPLATES } from './fuzz-names.ts';
import {
  authSpec,
  contentType,
  extraHeaders,
  method,
  scenarioHeader,
  submitScenarioHeader,
} from './header-arbitraries.ts';
import { pathShape, queryText, segmentFor } from './path-arbitraries.ts';

export type * from './call-types.ts';
export { controlBody } from './body-arbitraries.ts';
export {
  ADMIN_TOKEN,
  BUILT_IN_KEYS,
  MODEL_IDS,
  routeMethods,
  SCENARIO_NAMES,
} from './fuzz-names.ts';
export { CONTENT_TYPES, scenarioValue } from './header-arbitraries.ts';
export { nativeBody, submissionBody } from './submission-arbitraries.ts';
export { clockStep, worldSpec, type PreludeTask, type WorldSpec } from './world-arbitraries.ts';

function templateCall(template: string, keyCount: number): fc.Arbitrary<CallSpec> {
  const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  return fc.record({
    template: fc.constant(template),
    method,
    methodIndex: fc.nat(1),
    params: fc.tuple(...names.map(segmentFor)),
    shape: pathShape,
    query: queryText,
    auth: authSpec(keyCount),
    contentType,
    scenario: SUBMIT_TEMPLATES.has(template) ? submitScenarioHeader : scenarioHeader,
    extraHeaders,
    body: bodyFor(template),
  });
}

/** One fuzzed call for a world with `keyCount` keys: a route of the table (mostly) or a near miss. */
export function callSpec(keyCount: number): fc.Arbitrary<CallSpec> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.oneof(...ROUTE_TEMPLATES.map((t) => templateCall(t, keyCount))) },
    { weight: 1, arbitrary: fc.oneof(...NEAR_MISSES.map((t) => templateCall(t, keyCount))) },
  );
}

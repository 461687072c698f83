/**
 * videotask's simulated service, environment-neutral: the engine (`createMockService`) and its msw
 * handlers (`createHandlers`), for msw's `setupServer` in Node and `setupWorker` in a browser alike.
 * It exports what docs/mock.md documents ("The API in code"), nothing internal: test/mocks/public-api.test.ts
 * holds the two to each other.
 * Nothing reachable from here touches a Node API (test/mocks/neutral-core.e2e.test.ts bundles it for the
 * browser to prove it). Node-only parts (node:http host, state file, defects by name: decisions/029)
 * are in `./index.ts`.
 */
export {
  createMockService,
  type MockOptions,
  type MockService,
  type ServiceWrapper,
  type WrapContext,
} from './core/service/service.ts';
export { createHandlers, type HandlerOptions } from './msw/handlers.ts';
export {
  assertNoClientViolations,
  ClientVerdictError,
  type ClientAssertionOptions,
} from './core/client-verdicts/assert-no-violations.ts';
export type { ClientReport, ClientVerdict } from './core/client-verdicts/client-report.ts';
export type {
  ClientVerdictOptions,
  ClientVerdicts,
} from './core/client-verdicts/client-verdicts.ts';
export type { ClientLimits } from './core/client-verdicts/caller-track.ts';
export type { Observation } from './core/client-verdicts/observation.ts';
export {
  formatVerdict,
  renderClientJUnit,
  renderClientSummary,
} from './core/client-verdicts/report-text.ts';
export { OBSERVED_PROFILE, type ProfileOption } from './core/profile/profiles.ts';
export { ProfileError, readProfile, type LearnedProfile } from '../src/profile/index.ts';
export { createClock, type Clock, type ClockOptions } from './core/clock.ts';
export { BUILT_IN_TOKENS, type MockToken } from './core/keys/tokens.ts';
export { BUILT_IN_MODELS, SECOND_FAMILY_MODELS, type CatalogModel } from './core/keys/catalog.ts';
export type { Persistence, PersistedState } from './core/service/persistence.ts';
export { StateNotSavedError } from './core/service/persistence.ts';
export type { CoreRequest, CoreResponse } from './core/http/http-types.ts';

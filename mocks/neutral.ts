/**
 * videotask's simulated service, environment-neutral: the engine (`createMockService`) and its msw
 * handlers (`createHandlers`), for msw's `setupServer` in Node and `setupWorker` in a browser alike.
 * Nothing reachable from here touches a Node API (test/mocks/neutral-core.e2e.test.ts bundles it for the
 * browser to prove it). Node-only parts (node:http host, state file, defects by name: decisions/029)
 * are in `./index.ts`.
 */
export {
  createMockService,
  DEFAULT_ARTIFACT_TTL_MS,
  DEFAULT_MAX_BODY_BYTES,
  type MockOptions,
  type MockService,
  type ServiceWrapper,
  type WrapContext,
} from './core/service.ts';
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
export { OBSERVED_PROFILE, type ProfileOption } from './core/profiles.ts';
export { ProfileError, readProfile, type LearnedProfile } from '../src/profile/index.ts';
export { createClock, type Clock, type ClockOptions } from './core/clock.ts';
export { BUILT_IN_TOKENS, tokensFromConfig, type MockToken } from './core/tokens.ts';
export { maskKey } from '../src/redaction/redactor.ts';
export { BUILT_IN_MODELS, SECOND_FAMILY_MODELS, type CatalogModel } from './core/catalog.ts';
export { snapshot, type TaskSnapshot } from './core/snapshot.ts';
export { DEFAULT_TIMING, type TaskPlan, type Timing, type Outcome } from './core/plan.ts';
export { TaskStore } from './core/store.ts';
export { TaskRecord, type MintedAt } from './core/task-record.ts';
export { sampleVideo } from './core/media.ts';
export { hmacSha256, sha256, type HmacFactory, type MacFunction } from './core/sha256.ts';
export type { Persistence, PersistedState } from './core/persistence.ts';
export { StateNotSavedError } from './core/persistence.ts';
export {
  applyOperation,
  type ClockState,
  type Operation,
  type SharedState,
  type TaskExtras,
} from './core/shared-state.ts';
export { TASK_ID_PATTERN } from './core/task-id-codec.ts';
export type { TaskIdShare } from './core/task-id-share.ts';
export type { CoreRequest, CoreResponse } from './core/http-types.ts';

/**
 * videotask's simulated service: one engine (`createMockService`), two hosts (`createHandlers` for msw,
 * `startMockServer` for node:http).
 */
export {
  createMockService,
  DEFAULT_ARTIFACT_TTL_MS,
  DEFAULT_MAX_BODY_BYTES,
  type MockOptions,
  type MockService,
} from './core/service.ts';
export { createHandlers } from './hosts/msw-handlers.ts';
export {
  startMockServer,
  type MockServerOptions,
  type RunningMockServer,
} from './hosts/node-server.ts';
export { createClock, type Clock, type ClockOptions } from './core/clock.ts';
export { BUILT_IN_TOKENS, maskKey, tokensFromConfig, type MockToken } from './core/tokens.ts';
export { BUILT_IN_MODELS, SECOND_FAMILY_MODELS, type CatalogModel } from './core/catalog.ts';
export { snapshot, type TaskSnapshot } from './core/snapshot.ts';
export { DEFAULT_TIMING, type TaskPlan, type Timing, type Outcome } from './core/plan.ts';
export { TaskStore, TaskRecord } from './core/store.ts';
export { sampleVideo } from './core/media.ts';
export type { CoreRequest, CoreResponse } from './core/http-types.ts';
export {
  readStateFile,
  StateFileError,
  type StateFile,
  type StateFileOptions,
  type RestoredState,
} from './core/state-file.ts';

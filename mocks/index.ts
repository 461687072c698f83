/**
 * videotask's simulated service for Node: one engine (`createMockService`, here with its state file),
 * two hosts (`createHandlers` for msw, `startMockServer` for node:http). The environment-neutral part
 * alone (browsers, msw's `setupWorker`) is `./neutral.ts`.
 */
export * from './neutral.ts';
export {
  createMockService,
  type MockOptions,
  type MockService,
} from './node/create-mock-service.ts';
export {
  startMockServer,
  type MockServerOptions,
  type RunningMockServer,
} from './hosts/node-server.ts';
export {
  readStateFile,
  StateFileError,
  type StateFile,
  type StateFileOptions,
  type RestoredState,
} from './node/state-file.ts';

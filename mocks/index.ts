/**
 * videotask's simulated service for Node: one engine (`createMockService`, here with its state file),
 * two hosts (`createHandlers` for msw, `startMockServer` for node:http). The environment-neutral part
 * alone (browsers, msw's `setupWorker`) is `./neutral.ts`.
 */
import { handlersMadeWith } from './msw/handlers.ts';
import {
  createMockService,
  type MockOptions,
  type MockService,
} from './node/create-mock-service.ts';

export * from './neutral.ts';
export { createMockService, type MockOptions, type MockService };

/**
 * `createHandlers` with Node's options: given options, it makes its service with this entry's
 * `createMockService`, so defects by name and a state file work here as they do for
 * `startMockServer` (the neutral entry's takes the core's options only, decisions/029).
 *
 * @example
 * setupServer(...createHandlers({ defects: ['no-progress'], clock: { mode: 'manual' } }));
 */
export const createHandlers = handlersMadeWith(createMockService);
export {
  startMockServer,
  type MockServerOptions,
  type RunningMockServer,
} from './node/http/server.ts';
export { StateFileError } from './node/state-file/format.ts';

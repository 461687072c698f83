/**
 * The two fuzz layers, shared by the bounded vitest suites and the long run (`scripts/fuzz.ts`):
 *  - core: `createMockService(...).handle(request)` in-process, a fresh world per run, for volume;
 *  - socket: the real node:http host over TCP on 127.0.0.1, for what only a socket shows.
 * Each throws an Error naming the seed, the layer and the cases run when a property fails.
 */
export { coreCase, fuzzCore, runCoreCase, type CoreCase, type CoreStep } from './core-layer.ts';
export {
  DEFAULT_FUZZ_SEED,
  FUZZ_TIMEOUT_MS,
  fuzzSeed,
  REQUEST_TIMEOUT_MS,
  within,
} from './fuzz-support.ts';
export { fuzzSocket, runSocketCase, SOCKET_MAX_BODY, type SocketTarget } from './socket-layer.ts';
export { encodeRequest } from './wire-encoding.ts';
export { socketCase, wireSpec, type SocketCase, type WireSpec } from './wire-spec.ts';

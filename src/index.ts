/**
 * videotask's library entry point: the service contract (spec, validators, lifecycle) and,
 * as they land, the typed client and poller.
 */
export * from './spec/index.ts';
export * from './spec/load-spec-file.ts';
export type { components, paths, operations } from './generated/openapi.ts';
export * from './client/index.ts';

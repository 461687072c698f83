/**
 * `videotask`: the typed client of the video generation task service, for the browser and Node
 * alike. Node-only parts (the journal file, the download into a file) are in `videotask/node`; the
 * spec's tooling (validators, lifecycle, the spec files) in `videotask/spec`
 * (decisions/026-lean-client.md).
 */
export * from './client/index.ts';
export type { components, operations, paths } from './generated/openapi.ts';

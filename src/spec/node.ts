/**
 * `videotask/spec` in Node: the service contract's tooling (the spec as data, its validators, the
 * lifecycle, the extension readers) and the spec files on disk (`loadSpecFile`). Bundlers for the
 * browser get `./index.ts` instead (the `browser` condition): everything but the files.
 */
export * from './index.ts';
export * from './load-spec-file.ts';
export type { components, operations, paths } from '../generated/openapi.ts';

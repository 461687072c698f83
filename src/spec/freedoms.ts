import freedomsJson from '../generated/freedoms.json' with { type: 'json' };
import { readFreedoms, type Freedom } from './freedoms-table.ts';

export * from './freedoms-table.ts';

let loaded: readonly Freedom[] | undefined;

/**
 * The committed freedom table: `spec/freedoms.yaml` as `src/generated/freedoms.json` (written by `npm
 * run generate`, so loading it reads no file and parses no YAML).
 */
export function documentFreedoms(): readonly Freedom[] {
  loaded ??= readFreedoms(freedomsJson);
  return loaded;
}

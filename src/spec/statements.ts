import statementsJson from '../generated/statements.json' with { type: 'json' };
import { readStatements, type Statement } from './statements-table.ts';

export * from './statements-table.ts';

/**
 * The committed statement table: `spec/statements.yaml` as `src/generated/statements.json` (written by
 * `npm run generate`, so loading it reads no file and parses no YAML).
 */
let loaded: readonly Statement[] | undefined;
let byCheck: ReadonlyMap<string, readonly string[]> | undefined;

/** The committed table (src/generated/statements.json). */
export function documentStatements(): readonly Statement[] {
  loaded ??= readStatements(statementsJson);
  return loaded;
}

/** The ids of the statements a contract check judges, in the document's order. */
export function statementsJudgedBy(checkId: string): readonly string[] {
  if (byCheck === undefined) {
    const map = new Map<string, string[]>();
    for (const s of documentStatements())
      for (const check of s.checks) map.set(check, [...(map.get(check) ?? []), s.id]);
    byCheck = map;
  }
  return byCheck.get(checkId) ?? [];
}

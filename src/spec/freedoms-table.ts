import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import schema from '../../spec/freedoms.schema.json' with { type: 'json' };

/**
 * The room the service document leaves a deployment (`spec/freedoms.yaml`, decisions/042): every place
 * it is silent, says "not shown", gives a range or leaves a choice, and what a real deployment may do
 * there. The other side of the statement table: a statement says what a deployment must do, a freedom
 * what it may do.
 */
export interface Freedom {
  readonly id: string;
  /** `§N`, `§N.M` or `intro`. */
  readonly section: string;
  /** The document's words that leave the room: part of one of `statements`' texts. */
  readonly says: string;
  /** What is open, in our words. */
  readonly room: string;
  /** The statement rows it touches: the checks mapped to them rely on it. */
  readonly statements: readonly string[];
  /** Further checks that rely on it. */
  readonly checks: readonly string[];
  readonly variations: readonly FreedomVariation[];
}

/** One thing a real deployment may do in a freedom's room. */
export interface FreedomVariation {
  readonly id: string;
  readonly text: string;
  /** Checks of an assumption it departs from: they warn (fail with --strict), nothing more. */
  readonly departs: readonly string[];
  /** Task states a run may never see on such a deployment. */
  readonly hides: readonly string[];
  /** Why the suite cannot yet be run on it without a false verdict; the generator leaves it out. */
  readonly pending?: string | undefined;
}

/** The JSON Schema of the table (spec/freedoms.schema.json). */
export const FREEDOMS_SCHEMA: object = schema;

let validate: ValidateFunction | undefined;

function validator(): ValidateFunction {
  validate ??= new Ajv2020({ allErrors: true, strict: false }).compile(schema);
  return validate;
}

const problem = (e: ErrorObject) => `${e.instancePath || '/'}: ${e.message ?? 'is wrong'}`;

/**
 * The freedoms of a parsed `spec/freedoms.yaml`, checked against its schema and for repeated ids.
 * Throws naming each wrong field by its JSON pointer (`/freedoms/3/variations/0/id: must match …`).
 */
export function readFreedoms(document: unknown): Freedom[] {
  const check = validator();
  if (!check(document))
    throw new Error(
      `the freedom table does not match spec/freedoms.schema.json: ` +
        (check.errors ?? []).slice(0, 5).map(problem).join('; '),
    );
  const raw = (document as { freedoms: Freedom[] }).freedoms;
  const seen = new Set<string>();
  return raw.map((f, index) => {
    if (seen.has(f.id)) throw new Error(`/freedoms/${index}: freedom ${f.id} is listed twice`);
    seen.add(f.id);
    const ids = new Set<string>();
    for (const v of f.variations) {
      if (ids.has(v.id)) throw new Error(`freedom ${f.id}: variation ${v.id} is listed twice`);
      ids.add(v.id);
    }
    return {
      ...f,
      checks: f.checks ?? [],
      variations: f.variations.map((v) => ({
        ...v,
        departs: v.departs ?? [],
        hides: v.hides ?? [],
      })),
    };
  });
}

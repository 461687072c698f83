import { serviceSpec } from './load-spec.ts';
import { basisOf, type Basis, type OpenApiDocument } from './spec-types.ts';

/**
 * What a breach of a client rule is, by the rule's basis: a documented rule → `violation`, one of the
 * document's recommendations (§8) → `advice`, our reading where the document is silent → `note`. A
 * documented rule of which a request shows only a likely breach (`x-uncertain`) → `advice`.
 */
export type ClientOutcome = 'violation' | 'advice' | 'note';

/** One rule of the document for clients, from the spec's `x-client-rules` (docs/client-verdicts.md). */
export interface ClientRule {
  readonly id: string;
  readonly basis: Basis;
  /** `§7`, the section the rule cites. */
  readonly section: string;
  readonly outcome: ClientOutcome;
  /**
   * `x-uncertain`: documented, but a request shows only a likely breach (its outcome is advice, its
   * basis still the document's rule).
   */
  readonly uncertain: boolean;
  /** Whether traffic can show a breach; when not, `why`. */
  readonly judged: boolean;
  readonly why?: string | undefined;
  /** The §7 row the rule comes from, when one does. */
  readonly situation?: string | undefined;
  /** Exactly what the mock counts as a breach (judged rules). */
  readonly breach?: string | undefined;
  /** What to do instead. */
  readonly advice: string;
  /** The numbers a breach is measured with where the document gives none. */
  readonly parameters: Readonly<Record<string, number>>;
}

type Raw = Record<string, unknown>;

/** Reads and checks `x-client-rules`. Throws naming the first problem. */
export function readClientRules(document: OpenApiDocument): readonly ClientRule[] {
  const raw = document['x-client-rules'] as Raw | undefined;
  if (raw === undefined || !Array.isArray(raw['rules']))
    throw new Error('x-client-rules.rules must list the rules for clients');
  const seen = new Set<string>();
  return (raw['rules'] as unknown[]).map((node, i) => {
    const rule = readRule(node, `x-client-rules.rules[${i}]`);
    if (seen.has(rule.id)) throw new Error(`x-client-rules: duplicate id "${rule.id}"`);
    seen.add(rule.id);
    return rule;
  });
}

function readRule(node: unknown, where: string): ClientRule {
  if (node === null || typeof node !== 'object' || Array.isArray(node))
    throw new Error(`${where} must be an object`);
  const r = node as Raw;
  const id = text(r, 'id', where)!;
  const at = `x-client-rules "${id}"`;
  const basis = basisOf(r);
  const section = basis.source;
  if (section === undefined) throw new Error(`${at} needs x-source: the section it cites`);
  const recommendation = r['x-recommendation'] === true;
  if (recommendation && !basis.documented)
    throw new Error(`${at}: a recommendation is documented; drop x-documented: false`);
  const uncertain = r['x-uncertain'] === true;
  if (uncertain && !basis.documented)
    throw new Error(`${at}: x-uncertain is for a documented rule; a note is uncertain already`);
  const judged = r['judged'] !== false;
  const why = text(r, 'why', at, !judged);
  const breach = text(r, 'breach', at, judged);
  return {
    id,
    basis,
    section,
    outcome: !basis.documented ? 'note' : recommendation || uncertain ? 'advice' : 'violation',
    uncertain,
    judged,
    why,
    situation: text(r, 'situation', at, false),
    breach,
    advice: text(r, 'advice', at)!,
    parameters: numbers(r['parameters'], at),
  };
}

function text(r: Raw, key: string, where: string, required = true): string | undefined {
  const value = r[key];
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string' || value.trim() === '')
    throw new Error(`${where}: ${key} must be a non-empty string`);
  return value.trim();
}

function numbers(node: unknown, where: string): Record<string, number> {
  if (node === undefined) return {};
  if (node === null || typeof node !== 'object' || Array.isArray(node))
    throw new Error(`${where}: parameters must map names to numbers`);
  for (const [name, value] of Object.entries(node))
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
      throw new Error(`${where}: parameter ${name} must be a number ≥ 0`);
  return node as Record<string, number>;
}

/** The service spec's rules for clients. */
export const CLIENT_RULES: readonly ClientRule[] = readClientRules(serviceSpec);

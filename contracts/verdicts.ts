import {
  basisOf,
  describeBasis,
  type Basis,
  type Lifecycle,
  type ServiceContract,
} from '../src/spec/index.ts';
import { statementsJudgedBy } from '../src/spec/statements.ts';
import { cellKey, type Cell } from './matrix/cells.ts';

export type Outcome = 'pass' | 'fail' | 'warn' | 'skip';

/** A check: one rule judged over everything the run saw. */
export interface CheckDefinition {
  /** Stable id used in reports and JUnit (`area.rule`). */
  readonly id: string;
  readonly title: string;
  /** The `x-lifecycle.rules` id it judges, whose basis decides fail or warn. */
  readonly rule?: string;
  /** Or an explicit basis (schema checks: the schema's own marking). */
  readonly basis?: Basis;
}

export interface Evidence {
  readonly taskId?: string | undefined;
  /** `GET /v1/videos/task_…/content (other key)`. */
  readonly request?: string | undefined;
  readonly status?: number | undefined;
  /** A redacted body excerpt, ending in `…` when cut. */
  readonly excerpt?: string | undefined;
  /** The cell of the observation space the exchange belongs to, when the run knows it. */
  readonly cell?: Cell | undefined;
  /** The exchange's place in the run's traffic (the index of its entry in `--har`). */
  readonly exchange?: number | undefined;
  /** How long the answer took, ms. */
  readonly ms?: number | undefined;
  /** What arrived, in a line: `HTTP 200 · video/mp4 · 52 bytes · 31 ms`. */
  readonly actual?: string | undefined;
  /** The deployment's own ID for the request (service request ID): `X-Oneapi-Request-Id: 20261123…`. */
  readonly serviceRequestId?: string | undefined;
  /** The request as a `curl` command line, the key as `$VIDEOTASK_API_KEY`. */
  readonly curl?: string | undefined;
}

export interface Violation {
  readonly message: string;
  readonly evidence?: Evidence | undefined;
}

export interface CheckResult {
  readonly id: string;
  readonly title: string;
  readonly rule: string | undefined;
  readonly basis: Basis;
  /** "documented §5" or "assumption". */
  readonly basisText: string;
  /** The statements of the document it judges (spec/statements.yaml ids), beside the section. */
  readonly statements: readonly string[];
  /** What the check expects, as its rule states it (with the basis), or its title. */
  readonly expected: string;
  /** The time the deployment took to answer what the check judged (each answer once), ms. */
  readonly durationMs: number;
  readonly outcome: Outcome;
  /** Observations that satisfied the rule. */
  readonly passes: number;
  readonly violations: readonly Violation[];
  /** Why it was skipped. */
  readonly skipped?: string | undefined;
}

/** How often one check was judged in one cell, and what it found there. */
export interface CellJudgement {
  readonly check: CheckDefinition;
  readonly cell: Cell;
  passes: number;
  violations: number;
}

/** A check's basis: its own (the shape checks), else its rule's. Throws naming an unknown rule. */
export function checkBasis(check: CheckDefinition, lifecycle: Lifecycle): Basis {
  if (check.basis !== undefined) return check.basis;
  if (check.rule === undefined) return { documented: false };
  const rule = lifecycle.rules.get(check.rule);
  if (rule === undefined)
    throw new Error(`Check ${check.id} names an unknown rule "${check.rule}"`);
  return rule.basis;
}

/** The longest violation message kept, in characters. */
const MAX_MESSAGE = 1000;

/**
 * Collects what each check observed. A violation of a documented rule fails the run; a violation of an
 * assumption (`x-documented: false`) warns, unless strict.
 */
export class Verdicts {
  readonly #entries = new Map<
    string,
    {
      definition: CheckDefinition;
      passes: number;
      violations: Violation[];
      skipped?: string;
      /** The answers it judged (by their place in the traffic), and the time they took. */
      judged: Set<number>;
      ms: number;
    }
  >();
  /** By check id, then by cell key. */
  readonly #judgements = new Map<string, Map<string, CellJudgement>>();

  /** `checks`: every check the run may report; one that sees nothing is reported as skipped. */
  constructor(
    /** The service contract the run judges by (its validators and `x-lifecycle`), never a module's. */
    readonly spec: ServiceContract,
    readonly strict: boolean,
    checks: readonly CheckDefinition[] = [],
  ) {
    for (const check of checks) this.#entry(check);
  }

  get lifecycle(): Lifecycle {
    return this.spec.lifecycle;
  }

  pass(check: CheckDefinition, count = 1, cell?: Cell): void {
    this.#entry(check).passes += count;
    if (cell !== undefined) this.#judgement(check, cell).passes += count;
  }

  violation(check: CheckDefinition, message: string, evidence?: Evidence): void {
    // A message may quote an answer; it is kept for the whole run, so only its start (issue 24 item 6).
    const kept = message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}…` : message;
    this.#entry(check).violations.push({ message: kept, evidence });
    this.#timed(check, evidence);
    if (evidence?.cell !== undefined) this.#judgement(check, evidence.cell).violations++;
  }

  /** Records the outcome of a boolean observation. */
  expect(check: CheckDefinition, ok: boolean, message: string, evidence?: Evidence): boolean {
    if (ok) {
      this.pass(check, 1, evidence?.cell);
      this.#timed(check, evidence);
    } else this.violation(check, message, evidence);
    return ok;
  }

  /** Adds the time of the answer `evidence` shows to the check's, once per answer. */
  #timed(check: CheckDefinition, evidence: Evidence | undefined): void {
    const { exchange, ms } = evidence ?? {};
    const entry = this.#entry(check);
    if (exchange === undefined || ms === undefined || entry.judged.has(exchange)) return;
    entry.judged.add(exchange);
    entry.ms += ms;
  }

  skip(check: CheckDefinition, reason: string): void {
    const entry = this.#entry(check);
    entry.skipped ??= reason;
  }

  basis(check: CheckDefinition): Basis {
    return checkBasis(check, this.lifecycle);
  }

  /** Every (check, cell) pair judged, with its passes and violations. */
  judgements(): readonly CellJudgement[] {
    return [...this.#judgements.values()].flatMap((byCell) => [...byCell.values()]);
  }

  results(): CheckResult[] {
    return [...this.#entries.values()].map(({ definition, passes, violations, skipped, ms }) => {
      const basis = this.basis(definition);
      const rule =
        definition.rule === undefined ? undefined : this.lifecycle.rules.get(definition.rule);
      let outcome: Outcome;
      if (violations.length > 0) outcome = basis.documented || this.strict ? 'fail' : 'warn';
      else if (passes > 0) outcome = 'pass';
      else outcome = 'skip';
      return {
        id: definition.id,
        title: definition.title,
        rule: definition.rule,
        basis,
        basisText: describeBasis(basis),
        statements: statementsJudgedBy(definition.id),
        expected:
          rule === undefined ? definition.title : `${rule.description} (${describeBasis(basis)})`,
        durationMs: ms,
        outcome,
        passes,
        violations,
        skipped: outcome === 'skip' ? (skipped ?? 'nothing the run saw exercised it') : undefined,
      };
    });
  }

  #judgement(check: CheckDefinition, cell: Cell): CellJudgement {
    let byCell = this.#judgements.get(check.id);
    if (byCell === undefined)
      this.#judgements.set(check.id, (byCell = new Map<string, CellJudgement>()));
    const key = cellKey(cell);
    let judgement = byCell.get(key);
    if (judgement === undefined)
      byCell.set(key, (judgement = { check, cell, passes: 0, violations: 0 }));
    return judgement;
  }

  #entry(check: CheckDefinition) {
    let entry = this.#entries.get(check.id);
    if (entry === undefined) {
      this.basis(check); // fails fast on an unknown rule id
      entry = { definition: check, passes: 0, violations: [], judged: new Set(), ms: 0 };
      this.#entries.set(check.id, entry);
    }
    return entry;
  }
}

export { basisOf };

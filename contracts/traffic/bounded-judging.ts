import type { ServiceContract } from '../../src/spec/index.ts';
import { CoverageNotes, type CellSelector } from '../coverage-notes.ts';
import type { Cell } from '../matrix/index.ts';
import { Verdicts, type CheckDefinition, type Evidence } from '../verdicts.ts';

/** A pass as `Verdicts.pass` takes it: the check, how many, in which cell. */
export type Pass = readonly [CheckDefinition, number, Cell | undefined];

/**
 * The suite's verdicts for a judge that never ends (traffic it watches for hours): every pass is
 * counted, at most `maxViolations` violations of each check are kept with their evidence (the rest
 * counted in `dropped`), and a pass keeps nothing of its exchange. A run of the suite sees a few hundred
 * answers; a proxy in front of production sees millions, and must not grow with them.
 */
export class BoundedVerdicts extends Verdicts {
  readonly #kept = new Map<string, number>();
  readonly #dropped = new Map<string, number>();
  /** The passes of the judging under way, while `recording`; undefined once anything else happened. */
  #recording: Pass[] | undefined;
  #recordingOn = false;

  constructor(
    spec: ServiceContract,
    strict: boolean,
    checks: readonly CheckDefinition[],
    readonly maxViolations: number,
  ) {
    super(spec, strict, checks);
  }

  override expect(check: CheckDefinition, ok: boolean, message: string, ev?: Evidence): boolean {
    if (!ok) this.violation(check, message, ev);
    // The base class remembers each answer a pass judged (to time it once): a set that never stops growing.
    else this.pass(check, 1, ev?.cell);
    return ok;
  }

  override pass(check: CheckDefinition, count = 1, cell?: Cell): void {
    this.#recording?.push([check, count, cell]);
    super.pass(check, count, cell);
  }

  override skip(check: CheckDefinition, reason: string): void {
    this.#recording = undefined;
    super.skip(check, reason);
  }

  /**
   * Runs `judging` and returns what it made, when that was passes only: what `replay` makes again
   * for an answer that would be judged the same (a polling loop's identical answers).
   */
  recording(judging: () => void): readonly Pass[] | undefined {
    this.#recording = [];
    this.#recordingOn = true;
    try {
      judging();
      return this.#recording;
    } finally {
      this.#recording = undefined;
      this.#recordingOn = false;
    }
  }

  /** The passes a recorded judging made, made again `times` times. */
  replay(passes: readonly Pass[], times = 1): void {
    for (const [check, count, cell] of passes) super.pass(check, count * times, cell);
  }

  override violation(check: CheckDefinition, message: string, evidence?: Evidence): void {
    if (this.#recordingOn) this.#recording = undefined;
    const kept = this.#kept.get(check.id) ?? 0;
    if (kept >= this.maxViolations) {
      this.#dropped.set(check.id, (this.#dropped.get(check.id) ?? 0) + 1);
      return;
    }
    this.#kept.set(check.id, kept + 1);
    super.violation(check, message, evidence);
  }

  /** Violations past `maxViolations`, by check id: counted, not listed. */
  get dropped(): ReadonlyMap<string, number> {
    return this.#dropped;
  }
}

interface Reason {
  readonly rule: string | undefined;
  readonly reason: string;
  readonly selector: CellSelector;
}

/**
 * The suite's coverage notes, each reason kept once however often the traffic gives it (a 429 every
 * minute for a week is one reason), at most `maxReasons` of them. A report reads them through
 * `notesFor`, which adds the reasons of last resort after everything the traffic showed.
 */
export class TrafficCoverage extends CoverageNotes {
  readonly #reasons = new Map<string, Reason>();

  constructor(readonly maxReasons: number) {
    super();
  }

  override because(reason: string, selector: CellSelector): void {
    this.#keep({ rule: undefined, reason, selector });
  }

  override ruleNotJudged(rule: string, reason: string, selector: CellSelector): void {
    this.#keep({ rule, reason, selector });
  }

  #keep(entry: Reason): void {
    const key = JSON.stringify(entry);
    if (this.#reasons.has(key) || this.#reasons.size >= this.maxReasons) return;
    this.#reasons.set(key, entry);
    if (entry.rule === undefined) super.because(entry.reason, entry.selector);
    else super.ruleNotJudged(entry.rule, entry.reason, entry.selector);
  }

  /** Notes for one report: what the traffic showed, then `fallbacks` for every cell it left alone. */
  notesFor(fallbacks: readonly Omit<Reason, 'rule'>[]): CoverageNotes {
    const notes = new CoverageNotes();
    for (const r of this.#reasons.values())
      if (r.rule === undefined) notes.because(r.reason, r.selector);
      else notes.ruleNotJudged(r.rule, r.reason, r.selector);
    for (const r of fallbacks) notes.because(r.reason, r.selector);
    return notes;
  }
}

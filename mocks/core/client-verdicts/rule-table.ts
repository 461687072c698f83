import type { ClientRule } from '../../../src/spec/client-rules.ts';

/**
 * The rules of `x-client-rules` the mock judges: each has its code here, and each judged rule of the
 * spec must be one of these (and the other way round), so that a rule added to the spec without a
 * judge, or a judge whose rule left the spec, stops the mock from starting.
 */
export const JUDGED_RULES = [
  'no-resubmission',
  'no-direct-retry-after-4xx',
  'backoff-after-429',
  'query-5xx-retry-limited',
  'query-5xx-no-new-task',
  'lost-answer-retry-limited',
  'lost-answer-idempotency-records',
  'unknown-slows-polling',
  'stop-polling-when-finished',
  'follow-content-redirects',
  'authorization-header',
  'json-content-type',
  'second-family-no-asset-references',
  'second-family-no-multipart',
  'native-formats-not-mixed',
  'poll-interval',
  'poll-attempts',
  'poll-growth',
  'multipart-submission',
  'content-after-completion',
  'keep-task-id',
  'json-body',
  'required-fields',
  'poll-ceiling',
  'second-family-readable-references',
  'second-family-no-preview-references',
] as const;

export type RuleId = (typeof JUDGED_RULES)[number];

/** A judged rule's place in `JUDGED_RULES`. */
export type RuleNumber = number;

/**
 * Each judged rule's number. The judges name the rule they count by it (`RULE['poll-interval']`): a
 * verdict holder keeps its entries in an array by number, so the breach a polling loop repeats on every
 * request finds its entry by index, not by hashing a key in a Map.
 */
export const RULE = Object.fromEntries(JUDGED_RULES.map((id, n) => [id, n])) as {
  readonly [K in RuleId]: RuleNumber;
};

/** The judged rules by ID. */
export type RuleTable = Readonly<Record<RuleId, ClientRule>>;

/** The parameters each judge reads (`x-client-rules[].parameters`). */
const PARAMETERS: Partial<Record<RuleId, readonly string[]>> = {
  'backoff-after-429': ['growBy'],
  'query-5xx-retry-limited': ['maxInRow'],
  'lost-answer-retry-limited': ['maxRepeats'],
  'unknown-slows-polling': ['slowerBy'],
  'stop-polling-when-finished': ['rereadsAllowed'],
  'poll-interval': ['minIntervalFraction'],
  'poll-growth': ['flatIntervals', 'grownBy', 'ceilingFraction'],
  'poll-ceiling': ['overCeilingBy'],
};

/** The numbers the judges measure with, read once from the rules' parameters and `x-polling`. */
export interface RuleNumbers {
  /** `query-5xx-retry-limited`: 5xx answers in a row after which another query breaks it. */
  readonly maxInRow: number;
  /** `stop-polling-when-finished`: queries allowed after the task was told finished. */
  readonly rereadsAllowed: number;
  /** `poll-interval`: the shortest interval that is not advice (ms). */
  readonly minIntervalMs: number;
  /** `unknown-slows-polling`: how much longer the interval must get. */
  readonly slowerBy: number;
  /** `backoff-after-429`: how much longer each wait must get. */
  readonly growBy: number;
  /** `lost-answer-retry-limited`: repeats of a lost submission allowed. */
  readonly maxRepeats: number;
  /** `poll-attempts`: queries of a task allowed before it was told finished. */
  readonly maxAttempts: number;
  /** `poll-growth`: intervals in a row that do not grow before the advice. */
  readonly flatIntervals: number;
  /** `poll-growth`: how much longer than the row's shortest an interval must be to count as grown. */
  readonly grownBy: number;
  /** `poll-growth`: an interval this long (ms) has reached the ceiling: it ends the row. */
  readonly ceilingMs: number;
  /** `poll-ceiling`: an interval between two running answers longer than this (ms) is past §8's ceiling. */
  readonly pastCeilingMs: number;
  /** The situation `long-running`: a task still running this long (ms) after its submission. */
  readonly longRunningMs: number;
}

export function ruleNumbers(
  table: RuleTable,
  polling: {
    readonly initialIntervalMs: number;
    readonly maxIntervalMs: number;
    readonly maxAttempts: number;
  },
): RuleNumbers {
  const p = (id: RuleId, name: string): number => table[id].parameters[name]!;
  return {
    maxInRow: p('query-5xx-retry-limited', 'maxInRow'),
    rereadsAllowed: p('stop-polling-when-finished', 'rereadsAllowed'),
    minIntervalMs: polling.initialIntervalMs * p('poll-interval', 'minIntervalFraction'),
    slowerBy: p('unknown-slows-polling', 'slowerBy'),
    growBy: p('backoff-after-429', 'growBy'),
    maxRepeats: p('lost-answer-retry-limited', 'maxRepeats'),
    maxAttempts: polling.maxAttempts,
    flatIntervals: p('poll-growth', 'flatIntervals'),
    grownBy: p('poll-growth', 'grownBy'),
    ceilingMs: polling.maxIntervalMs * p('poll-growth', 'ceilingFraction'),
    pastCeilingMs: polling.maxIntervalMs * (1 + p('poll-ceiling', 'overCeilingBy')),
    longRunningMs: polling.maxIntervalMs * 2,
  };
}

/** The judged rules of a spec's `x-client-rules`, checked against the judges here. Throws naming a mismatch. */
export function ruleTable(rules: readonly ClientRule[]): RuleTable {
  const judged = new Map(rules.filter((r) => r.judged).map((r) => [r.id, r]));
  const table = {} as Record<RuleId, ClientRule>;
  for (const id of JUDGED_RULES) {
    const rule = judged.get(id);
    if (rule === undefined)
      throw new Error(`x-client-rules has no judged rule "${id}", which the mock judges`);
    for (const name of PARAMETERS[id] ?? [])
      if (rule.parameters[name] === undefined)
        throw new Error(`x-client-rules "${id}" needs the parameter ${name}`);
    table[id] = rule;
    judged.delete(id);
  }
  const extra = [...judged.keys()];
  if (extra.length > 0)
    throw new Error(
      `x-client-rules marks ${extra.join(', ')} judged, but the mock has no judge for it: ` +
        'write one (mocks/core/client-verdicts/) or mark it judged: false with why',
    );
  return table;
}

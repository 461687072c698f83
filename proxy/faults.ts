/**
 * The faults of the service document a client must survive, injected on request (`--inject`), so a
 * client team sees its client meet them against a real deployment (issue 34 item 4). None makes the
 * deployment create a task the client did not ask for: a fault that answers in the deployment's place
 * forwards nothing, and the one that drops an answer forwards the client's own submission once.
 */
export const FAULTS = {
  'rate-limit': {
    on: 'submit',
    section: '§7',
    what: 'a submission answered 429 with Retry-After by the proxy: nothing forwarded',
  },
  'lost-answer': {
    on: 'submit',
    section: '§7',
    what:
      "a submission forwarded and the deployment's answer dropped (the connection closed): the task " +
      'exists, the client must reconcile by its own records',
  },
  'query-5xx': {
    on: 'query',
    section: '§7',
    what: 'a status query answered 503 by the proxy: nothing forwarded, never twice in a row for a task',
  },
  unknown: {
    on: 'query',
    section: '§3',
    what: "a task's queries forwarded and answered `unknown` for a while (--unknown-for), then as they are",
  },
  'content-redirect': {
    on: 'content',
    section: '§4.4',
    what:
      "a completed task's content answered by a 302 to a temporary address of the proxy, which then " +
      "serves the deployment's answer",
  },
} as const;

export type FaultName = keyof typeof FAULTS;
export const FAULT_NAMES = Object.keys(FAULTS) as FaultName[];

/** One `--inject`: a fault, at a rate of the requests it applies to, and always by its prompt tag. */
export interface FaultRule {
  readonly fault: FaultName;
  /** The share of the requests it applies to (0–1); 0 for the tag alone. */
  readonly rate: number;
}

/** The tag a prompt carries to ask for a fault: `[proxy:lost-answer]`. */
export const tagOf = (fault: FaultName): string => `[proxy:${fault}]`;

/**
 * `NAME` (by tag only) or `NAME=RATE` (a share of the requests, and by tag too), or a message saying
 * what is wrong with it.
 */
export function parseFaultRule(spec: string): FaultRule | string {
  const [name, rate, ...rest] = spec.split('=');
  if (!(FAULT_NAMES as string[]).includes(name!) || rest.length > 0)
    return `--inject ${spec}: give NAME or NAME=RATE, NAME one of ${FAULT_NAMES.join(', ')}`;
  const fault = name as FaultName;
  if (rate === undefined || rate === 'tag') return { fault, rate: 0 };
  const share = Number(rate);
  if (rate.trim() === '' || !Number.isFinite(share) || share < 0 || share > 1)
    return `--inject ${spec}: the rate is a number from 0 to 1 (0.1 = every tenth request), or "tag"`;
  return { fault, rate: share };
}

/**
 * Which requests get a fault: its prompt tag, or its rate, spread evenly and reproducibly (a rate of
 * 0.25 is every fourth request it applies to, not a random quarter).
 */
export class FaultPicker {
  readonly #rates = new Map<FaultName, number>();
  readonly #owed = new Map<FaultName, number>();

  constructor(rules: readonly FaultRule[]) {
    for (const rule of rules) this.#rates.set(rule.fault, rule.rate);
  }

  get any(): boolean {
    return this.#rates.size > 0;
  }

  has(fault: FaultName): boolean {
    return this.#rates.has(fault);
  }

  /** Whether this request gets `fault`: asked for by tag, or its turn at the fault's rate. */
  pick(fault: FaultName, tagged: boolean): boolean {
    const rate = this.#rates.get(fault);
    if (rate === undefined) return false;
    if (tagged) return true;
    if (rate === 0) return false;
    const owed = (this.#owed.get(fault) ?? 0) + rate;
    const due = owed >= 1 - 1e-9;
    this.#owed.set(fault, due ? owed - 1 : owed);
    return due;
  }

  rules(): FaultRule[] {
    return [...this.#rates].map(([fault, rate]) => ({ fault, rate }));
  }
}

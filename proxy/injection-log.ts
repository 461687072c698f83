import { maskKey } from '../src/redaction/redactor.ts';
import { FAULT_NAMES, FAULTS, type FaultName } from './faults.ts';

/** One fault the proxy injected: which, when (wall ms), on what request, of which caller (masked). */
export interface Injection {
  readonly fault: FaultName;
  readonly section: string;
  readonly at: string;
  readonly atMs: number;
  readonly method: string;
  readonly path: string;
  readonly taskId?: string | undefined;
  readonly caller: string;
}

/** The most recent injections kept; every one is counted. */
const KEPT = 200;

/**
 * Every fault the proxy injected, for both reports (issue 34 item 4): counted by fault, the last
 * `KEPT` listed, and findable by the request they answered (a client verdict's evidence names it by
 * method, path and time).
 */
export class InjectionLog {
  readonly counts = Object.fromEntries(FAULT_NAMES.map((f) => [f, 0])) as Record<FaultName, number>;
  readonly #recent = new Map<string, Injection>();

  record(input: {
    fault: FaultName;
    atMs: number;
    method: string;
    path: string;
    taskId: string | undefined;
    key: string;
  }): void {
    this.counts[input.fault]++;
    const injection: Injection = {
      fault: input.fault,
      section: FAULTS[input.fault].section,
      at: new Date(input.atMs).toISOString(),
      atMs: input.atMs,
      method: input.method,
      path: input.path,
      ...(input.taskId === undefined ? {} : { taskId: input.taskId }),
      caller: input.key === '' ? '(no key)' : maskKey(input.key),
    };
    const key = keyOf(input.method, input.path, input.atMs);
    this.#recent.delete(key);
    this.#recent.set(key, injection);
    if (this.#recent.size > KEPT) this.#recent.delete(this.#recent.keys().next().value!);
  }

  get total(): number {
    return FAULT_NAMES.reduce((sum, f) => sum + this.counts[f], 0);
  }

  /** The injection that answered this request, if it is among the recent ones. */
  find(method: string, path: string, atMs: number): Injection | undefined {
    return this.#recent.get(keyOf(method, path, atMs));
  }

  recent(): Injection[] {
    return [...this.#recent.values()];
  }

  /** One line for a report: what was injected, how often. */
  line(): string | undefined {
    const done = FAULT_NAMES.filter((f) => this.counts[f] > 0);
    if (done.length === 0) return undefined;
    const parts = done.map((f) => `${f} ×${this.counts[f]} (${FAULTS[f].section})`);
    return (
      `the proxy injected ${this.total} fault(s): ${parts.join(', ')}; an answer the proxy made ` +
      "is not the deployment's and is not judged as one (a lost answer and an `unknown` were the " +
      "deployment's answers, judged before the proxy dropped or changed them)"
    );
  }
}

const keyOf = (method: string, path: string, atMs: number) => `${method} ${path} ${atMs}`;

// What a fuzz run counts and reports, and how it shows a body in a failure message.
import type { Exchange } from './oracle.ts';

export type Layer = 'core' | 'socket';
const lenient = new TextDecoder();
/** Counters a run reports, and who else sees every exchange the oracle judges. */
export class FuzzStats {
  /** `onExchange`: called with every exchange the oracle checks (the Prism review keeps them). */
  constructor(readonly onExchange?: (exchange: Exchange) => void) {}

  readonly cases: Record<Layer | 'isolation', number> = { core: 0, socket: 0, isolation: 0 };
  readonly statuses: Record<Layer, Map<number, number>> = { core: new Map(), socket: new Map() };
  /** `status code` pairs of the answers (error code, or `-` for a success). */
  readonly codes = new Map<string, number>();
  /** 5xx answers the policy allowed, by reason. */
  readonly allowed5xx = new Map<string, number>();
  /** Socket outcomes other than a plain answer (host-level 400, closed by the client on purpose, …). */
  readonly outcomes = new Map<string, number>();
  /** Isolation: foreign-task attempts compared with a missing task, success answers checked. */
  readonly isolation = { foreignAttempts: 0, ownSuccesses: 0, modelLists: 0, submissions: 0 };
  /** Isolation: the statuses seen per operation (`submit 200`, `own content 206`, `foreign video 404`, …). */
  readonly isolationStatuses = new Map<string, number>();

  bump(map: Map<string | number, number>, key: string | number): void {
    map.set(key, (map.get(key) ?? 0) + 1);
  }

  summary() {
    const sorted = (m: Map<number, number>) =>
      Object.fromEntries([...m.entries()].sort((a, b) => a[0] - b[0]));
    return {
      cases: this.cases,
      statuses: { core: sorted(this.statuses.core), socket: sorted(this.statuses.socket) },
      codes: Object.fromEntries([...this.codes.entries()].sort((a, b) => b[1] - a[1])),
      allowed5xx: Object.fromEntries(this.allowed5xx),
      socketOutcomes: Object.fromEntries(this.outcomes),
      isolation: {
        ...this.isolation,
        statuses: Object.fromEntries([...this.isolationStatuses.entries()].sort()),
      },
    };
  }
}

export function text(bytes: Uint8Array | string | undefined, max = 300): string {
  if (bytes === undefined) return '(no body)';
  const s = typeof bytes === 'string' ? bytes : lenient.decode(bytes.subarray(0, max + 1));
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

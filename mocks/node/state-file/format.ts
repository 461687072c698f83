import type { Operation, SharedState } from '../../core/state/shared-state.ts';
import { operationToJson, planToJson } from '../../core/state/shared-state-json.ts';

/**
 * The state file's lines (decisions/012). One file of JSON lines:
 * - line 1, the header: `{"format", "version": 2, "seed", "secret" (when the file keeps it) or
 *   "secretFingerprint", "starts", "clock", "generation", "familyBound", "savedAt"}`;
 * - the shared state's entries: `{"forced": [id, plan]}`, `{"extras": [id, extras]}`,
 *   `{"queries": [id, n]}`, `{"requestId": [id, n]}` (a client request ID and its submissions: the
 *   key predates the name `clientRequestId` and stays, so older versions read newer files);
 * - the listing: `{"task": id}`, one per task created, in order;
 * - the journal, appended as the mock runs: `{"op": operation}`, `{"task": id}`, `{"clock": ms}` (a
 *   position the clock resumes at or after: a manual clock's after an advance, a real clock's lease) and
 *   `{"start": n, "clock": ms}`.
 * A compaction rewrites it as header, entries and listing.
 */
export const STATE_FORMAT = 'videotask-mock-state';
export const STATE_VERSION = 2;

/** A state file that cannot be used: it does not parse, is in use, or cannot be written. */
export class StateFileError extends Error {
  override readonly name = 'StateFileError';
  constructor(
    readonly file: string,
    /** 1-based line of the problem, when it is in one line. */
    readonly line: number | undefined,
    readonly problem: string,
  ) {
    super(`state file ${file}${line === undefined ? '' : `, line ${line}`}: ${problem}`);
  }
}

/**
 * How the file names the deployment's secret: the secret itself (a random one the file keeps), or the
 * fingerprint of one given from outside (`--secret`, `VIDEOTASK_MOCK_SECRET`), which it never stores.
 */
export type SecretRecord = { readonly kept: string } | { readonly fingerprint: string };

export interface Header {
  readonly seed: number | string;
  readonly secret: SecretRecord;
  readonly starts: number;
  readonly clock: number;
  readonly generation: number;
  readonly familyBound: boolean;
}

export function headerLine(header: Header): string {
  const { secret } = header;
  return JSON.stringify({
    format: STATE_FORMAT,
    version: STATE_VERSION,
    seed: header.seed,
    ...('kept' in secret ? { secret: secret.kept } : { secretFingerprint: secret.fingerprint }),
    starts: header.starts,
    clock: header.clock,
    generation: header.generation,
    familyBound: header.familyBound,
    savedAt: new Date().toISOString(),
  });
}

/** The shared state's entries, one line each. */
export function* entryLines(shared: Readonly<SharedState>): Generator<string> {
  for (const [id, plan] of shared.forced) yield JSON.stringify({ forced: [id, planToJson(plan)] });
  for (const [id, extras] of shared.extras) yield JSON.stringify({ extras: [id, extras] });
  for (const [id, count] of shared.queries) yield JSON.stringify({ queries: [id, count] });
  for (const [id, count] of shared.clientRequestIds)
    yield JSON.stringify({ requestId: [id, count] });
}

export const taskLine = (id: string): string => `{"task":"${id}"}`;
export const clockLine = (ms: number): string => JSON.stringify({ clock: ms });
export const startLine = (start: number, clock: number): string => JSON.stringify({ start, clock });
export const operationLine = (operation: Operation): string =>
  JSON.stringify({ op: operationToJson(operation) });

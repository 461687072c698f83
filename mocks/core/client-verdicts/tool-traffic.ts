import { TOOLS } from '../../../src/tool-mark.ts';
import type { CallerTrack } from './caller-track.ts';
import type { Observation } from './observation.ts';

/** What the tool-traffic bookkeeping asks of the judge: the track of a caller it knows. */
interface Callers {
  known(caller: string): CallerTrack | undefined;
}

const CLIENT_RETRY = TOOLS.indexOf('client-retry') + 1;

/**
 * The requests the project's own tools marked (`X-Videotask-Tool`, src/tool-mark.ts), set apart from
 * the verdicts (decisions/045): the report's verdicts are the client's own doings.
 *
 * - A tool's request (`contract`, `learn`, `drift`, `verify-family`, `monitor`) is not judged: it is
 *   counted under its tool. Unless the mock can tell it is the client's: a request about a task the
 *   caller's own (unmarked) traffic submitted or queried, or a submission identical to one of them
 *   (same body or request ID). Those are judged as the client's, and counted as `notCovered`.
 * - A `client-retry` (the reference client repeating a request after a temporary failure, §7) is
 *   judged as the client's traffic (its tasks, its polling loop) but breaks no rule itself, when it
 *   is a retry: a submission after its 429, 5xx or lost answer, or a query after a 5xx or 429. Marked
 *   on any other request, the mark covers nothing (`notCovered`).
 */
export class ToolTraffic {
  /** Requests per tool (`TOOLS` order), set apart or covered. */
  readonly #byTool = new Array<number>(TOOLS.length).fill(0);
  #notCovered = 0;

  /** Whether a tool's request is set apart (not judged). A `client-retry` never is: see `covers`. */
  setApart(callers: Callers, o: Observation): boolean {
    if (o.tool === CLIENT_RETRY || !(o.tool <= TOOLS.length)) return false;
    const caller = callers.known(o.caller);
    if (caller !== undefined && clientsOwn(caller, o)) {
      this.#notCovered++;
      return false;
    }
    this.#byTool[o.tool - 1]!++;
    return true;
  }

  /** Whether a marked request of a known caller is a covered retry (judged, but no breach of its own). */
  covers(caller: CallerTrack, o: Observation): boolean {
    // Another tool's request here is judged as the client's (`setApart` counted it), as is a number
    // that names no tool.
    if (o.tool !== CLIENT_RETRY) return false;
    if (isRetry(caller, o)) {
      this.#byTool[o.tool - 1]!++;
      return true;
    }
    this.#notCovered++;
    return false;
  }

  /** Requests set apart per tool, and marked requests judged as the client's all the same. */
  counts(): { byTool: Record<string, number>; notCovered: number; requests: number } {
    const byTool: Record<string, number> = {};
    let requests = 0;
    TOOLS.forEach((tool, i) => {
      const count = this.#byTool[i]!;
      if (count === 0) return;
      byTool[tool] = count;
      requests += count;
    });
    return { byTool, notCovered: this.#notCovered, requests };
  }

  clear(): void {
    this.#byTool.fill(0);
    this.#notCovered = 0;
  }
}

/** A request about the caller's own tasks: one its unmarked traffic submitted or queried. */
function clientsOwn(caller: CallerTrack, o: Observation): boolean {
  if (o.taskId !== undefined && caller.tasks.has(o.taskId)) return true;
  if (o.kind !== 'submit') return false;
  if (o.clientRequestId !== undefined && caller.byClientRequestId.has(o.clientRequestId))
    return true;
  return (
    caller.byFingerprint.has(o.fingerprint) || caller.attempt(o.fingerprint, false) !== undefined
  );
}

/** §7's temporary failures a retry follows: the caller's last answer to the same request. */
function isRetry(caller: CallerTrack, o: Observation): boolean {
  if (o.kind === 'submit') {
    const run = caller.attempt(o.fingerprint, false);
    return run !== undefined && (run.lost || run.status === 429 || run.status >= 500);
  }
  if (o.kind !== 'query' || o.taskId === undefined) return false;
  const last = caller.tasks.get(o.taskId)?.latest;
  return last !== undefined && (last.status === 429 || last.status >= 500);
}

import { excerpt, type Exchange, type HttpRecorder } from '../http-recorder.ts';
import type { Cell } from '../matrix/cells.ts';
import type { Evidence } from '../verdicts.ts';

/** What a report shows of an exchange: request line, status, a redacted excerpt and its cell. */
export function evidenceOf(
  recorder: HttpRecorder,
  exchange: Exchange,
  taskId?: string,
  cell?: Cell,
): Evidence {
  let shown: string | undefined;
  return {
    taskId,
    request: `${exchange.method} ${exchange.path}${exchange.as === 'primary' ? '' : ` (${exchange.as} key)`}`,
    status: exchange.status,
    // Built when a report shows it: most evidence belongs to observations that held.
    get excerpt() {
      return (shown ??= recorder.redact(excerpt(exchange)));
    },
    cell,
  };
}

export const isJsonBody = (e: Exchange) =>
  e.json !== undefined && e.json !== null && typeof e.json === 'object';
export const is2xx = (e: Exchange) => e.status >= 200 && e.status < 300;
export const is4xx = (e: Exchange) => e.status >= 400 && e.status < 500;

import { excerpt, type Exchange, type HttpRecorder } from '../http-recorder.ts';
import type { Cell } from '../matrix/cells.ts';
import { actualOf, curlOf, serviceRequestIdOf } from '../reproduction.ts';
import type { Evidence } from '../verdicts.ts';

/**
 * What a report shows of an exchange: request line, status, a redacted excerpt and its cell, and how to
 * reproduce it (a `curl` line, the deployment's request ID, what arrived). The report passes every
 * text through the run's redaction again.
 */
export function evidenceOf(
  recorder: HttpRecorder,
  exchange: Exchange,
  taskId?: string,
  cell?: Cell,
): Evidence {
  let shown: string | undefined;
  const by = exchange.as === 'primary' ? '' : ` (${exchange.as} key)`;
  // Built when a report shows them: most evidence belongs to observations that held.
  return {
    taskId,
    request: `${exchange.method} ${exchange.path}${by}`,
    status: exchange.status,
    get excerpt() {
      return (shown ??= recorder.redact(excerpt(exchange)));
    },
    cell,
    exchange: exchange.index,
    ms: Math.round(exchange.ms),
    get actual() {
      return actualOf(exchange);
    },
    get requestId() {
      const id = serviceRequestIdOf(exchange);
      return id === undefined ? undefined : `${id.source}: ${id.value}`;
    },
    get curl() {
      return curlOf(exchange, recorder.options.baseUrl);
    },
  };
}

export const isJsonBody = (e: Exchange) =>
  e.json !== undefined && e.json !== null && typeof e.json === 'object';
export const is2xx = (e: Exchange) => e.status >= 200 && e.status < 300;
export const is4xx = (e: Exchange) => e.status >= 400 && e.status < 500;

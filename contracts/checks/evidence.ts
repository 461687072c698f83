import type { Exchange, HttpRecorder, KeptExchange } from '../http-recorder.ts';
import type { Cell } from '../matrix/cells.ts';
import { actualOf, curlOf, serviceRequestIdOf } from '../reproduction.ts';
import type { Evidence } from '../verdicts.ts';

/**
 * What a report shows of an exchange: request line, status, a redacted excerpt and its cell, and how to
 * reproduce it (a `curl` line, the deployment's request ID, what arrived). It holds the excerpt and
 * what the reproduction needs, never the body: evidence is kept for the whole run. The report passes
 * every text through the run's redaction again.
 */
export function evidenceOf(
  recorder: HttpRecorder,
  exchange: KeptExchange,
  taskId?: string,
  cell?: Cell,
): Evidence {
  const raw = exchange.excerpt;
  let shown: string | undefined;
  const { method, path, as, sent } = exchange;
  const found = serviceRequestIdOf(exchange);
  const serviceRequestId = found === undefined ? undefined : `${found.source}: ${found.value}`;
  return {
    taskId,
    request: `${method} ${path}${as === 'primary' ? '' : ` (${as} key)`}`,
    status: exchange.status,
    // Redacted when a report shows it: most evidence belongs to observations that held.
    get excerpt() {
      return (shown ??= recorder.redact(raw));
    },
    cell,
    exchange: exchange.index,
    ms: Math.round(exchange.ms),
    actual: actualOf(exchange),
    serviceRequestId,
    get curl() {
      return curlOf({ method, path, as, sent }, recorder.options.baseUrl);
    },
  };
}

export const isJsonBody = (e: Exchange) =>
  e.json !== undefined && e.json !== null && typeof e.json === 'object';
export const is2xx = (e: { readonly status: number }) => e.status >= 200 && e.status < 300;
export const is4xx = (e: { readonly status: number }) => e.status >= 400 && e.status < 500;

export { videoSignature } from '../../src/media/video-signature.ts';

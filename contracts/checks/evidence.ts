import type { Exchange, HttpRecorder, KeptExchange } from '../http-recorder.ts';
import type { Cell } from '../matrix/cells.ts';
import type { Evidence } from '../verdicts.ts';

/**
 * What a report shows of an exchange: request line, status, a redacted excerpt and its cell. It holds
 * the excerpt, never the exchange: evidence is kept for the whole run.
 */
export function evidenceOf(
  recorder: HttpRecorder,
  exchange: KeptExchange,
  taskId?: string,
  cell?: Cell,
): Evidence {
  const raw = exchange.excerpt;
  let shown: string | undefined;
  return {
    taskId,
    request: `${exchange.method} ${exchange.path}${exchange.as === 'primary' ? '' : ` (${exchange.as} key)`}`,
    status: exchange.status,
    // Built when a report shows it: most evidence belongs to observations that held.
    get excerpt() {
      return (shown ??= recorder.redact(raw));
    },
    cell,
  };
}

export const isJsonBody = (e: Exchange) =>
  e.json !== undefined && e.json !== null && typeof e.json === 'object';
export const is2xx = (e: { readonly status: number }) => e.status >= 200 && e.status < 300;
export const is4xx = (e: { readonly status: number }) => e.status >= 400 && e.status < 500;

export { videoSignature } from '../../src/media/video-signature.ts';

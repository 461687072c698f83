import { excerpt, type Exchange, type HttpRecorder } from '../http-recorder.ts';
import type { Evidence } from '../verdicts.ts';

/** What a report shows of an exchange: request line, status and a redacted excerpt. */
export function evidenceOf(recorder: HttpRecorder, exchange: Exchange, taskId?: string): Evidence {
  return {
    taskId,
    request: `${exchange.method} ${exchange.path}${exchange.as === 'primary' ? '' : ` (${exchange.as} key)`}`,
    status: exchange.status,
    excerpt: recorder.redact(excerpt(exchange)),
  };
}

export const isJsonBody = (e: Exchange) =>
  e.json !== undefined && e.json !== null && typeof e.json === 'object';
export const is2xx = (e: Exchange) => e.status >= 200 && e.status < 300;
export const is4xx = (e: Exchange) => e.status >= 400 && e.status < 500;

export { videoSignature } from '../../src/media/video-signature.ts';

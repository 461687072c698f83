import { excerpt, type Exchange, type HttpRecorder } from '../http-recorder.ts';
import type { Evidence } from '../verdicts.ts';

/** What a report shows of an exchange: request line, status and a redacted excerpt. */
export function evidenceOf(recorder: HttpRecorder, exchange: Exchange, taskId?: string): Evidence {
  return { taskId, request: `${exchange.method} ${exchange.path}${exchange.as === 'primary' ? '' : ` (${exchange.as} key)`}`, status: exchange.status, excerpt: recorder.redact(excerpt(exchange)) };
}

export const isJsonBody = (e: Exchange) => e.json !== undefined && e.json !== null && typeof e.json === 'object';
export const is2xx = (e: Exchange) => e.status >= 200 && e.status < 300;
export const is4xx = (e: Exchange) => e.status >= 400 && e.status < 500;

/** ISO BMFF (`ftyp` at offset 4: MP4/MOV), Matroska/WebM (EBML), or AVI (RIFF…AVI). */
export function videoSignature(head: Uint8Array): string | undefined {
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (head.byteLength >= 8 && ascii(4, 8) === 'ftyp') return 'ISO BMFF (ftyp)';
  if (head.byteLength >= 4 && head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) return 'Matroska/WebM (EBML)';
  if (head.byteLength >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'AVI ') return 'AVI';
  return undefined;
}

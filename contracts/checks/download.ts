import type { Cell } from '../matrix/cells.ts';
import type { RunContext } from '../run-context.ts';
import type { Exchange } from '../http-recorder.ts';
import { judgeContentLength } from './content-integrity.ts';
import { CHECKS } from './definitions.ts';
import { evidenceOf, is2xx, isJsonBody, videoSignature } from './evidence.ts';

/** A completed task downloads as a binary video, not JSON, following redirects (§4.4). */
export function judgeDownload(
  ctx: RunContext,
  exchange: Exchange,
  taskId: string,
  cell: Cell | undefined,
): void {
  const ev = evidenceOf(ctx.recorder, exchange, taskId, cell);
  const signature = videoSignature(exchange.head);
  const looksLikeVideo = signature !== undefined || /^video\//i.test(exchange.contentType);
  const ok = is2xx(exchange) && !isJsonBody(exchange) && exchange.bytes > 0 && looksLikeVideo;
  const what = [
    `HTTP ${exchange.status}`,
    exchange.contentType || 'no content type',
    `${exchange.bytes} bytes${isJsonBody(exchange) ? ' of JSON' : ''}`,
    ...(signature === undefined ? ['no video container signature'] : []),
  ].join(', ');
  ctx.verdicts.expect(CHECKS.contentBinary, ok, `the download answered ${what}`, ev);
  if (cell !== undefined) judgeContentLength(ctx, exchange, taskId);
  if (ok) {
    const redirected = exchange.redirected ? ' after a redirect' : '';
    const kind = signature ?? exchange.contentType;
    ctx.progress(`${taskId} downloaded ${exchange.bytes} bytes (${kind})${redirected}`);
  }
}

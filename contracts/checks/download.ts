import type { Cell } from '../matrix/cells.ts';
import type { RunContext } from '../run-context.ts';
import type { Exchange } from '../http-recorder.ts';
import { judgeContentLength } from './content-integrity.ts';
import { describeBytes, judgeVideoBytes } from './video-bytes.ts';

/** The owner's download of a completed task: §4.4 on its bytes, its length, and a line saying what came. */
export function judgeDownload(
  ctx: RunContext,
  exchange: Exchange,
  taskId: string,
  cell: Cell | undefined,
): void {
  const body = judgeVideoBytes(ctx, exchange, taskId, cell);
  if (cell !== undefined) judgeContentLength(ctx, exchange, taskId);
  if (body === undefined) return;
  const kind = body.kind === 'video' ? body.container : exchange.contentType;
  const type = exchange.contentType || 'no content type';
  const note = `content: the completed task downloads as ${describeBytes(body)}, ${type}`;
  if (!ctx.notes.includes(note)) ctx.notes.push(note);
  const redirected = exchange.redirected ? ' after a redirect' : '';
  ctx.progress(`${taskId} downloaded ${exchange.bytes} bytes (${kind})${redirected}`);
}

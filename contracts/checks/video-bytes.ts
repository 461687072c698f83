/**
 * §4.4 on the bytes of a download: a video, whatever its `Content-Type` says (the owner's download
 * and the content-integrity downloads judge them alike).
 */
import { describeBody, type BodyKind } from '../../src/media/video-signature.ts';
import type { Cell } from '../matrix/cells.ts';
import type { RunContext } from '../run-context.ts';
import type { Exchange } from '../http-recorder.ts';
import { CHECKS } from './definitions.ts';
import { evidenceOf, is2xx, isJsonBody } from './evidence.ts';

/** What the bytes were, in words: "a video (ISO BMFF (ftyp))", "HTML", "no bytes at all". */
export function describeBytes(body: BodyKind): string {
  switch (body.kind) {
    case 'video':
      return `a video (${body.container})`;
    case 'empty':
      return 'no bytes at all';
    case 'text':
      return body.what;
    case 'binary':
      return 'binary data of no known video container';
  }
}

/**
 * §4.4 on one answer to a completed task's content: a binary video stream, not JSON, following
 * redirects. The bytes decide, whatever `Content-Type` says: a known container signature is a video;
 * text (an HTML page, a JSON body, plain text) or nothing is not; other binary data passes only when
 * labelled `video/*`. Judged on every download of the task the run makes, not only the first (issue 31
 * item 6). Returns what the bytes were, or undefined when they were no video.
 */
export function judgeVideoBytes(
  ctx: Pick<RunContext, 'verdicts' | 'recorder'>,
  exchange: Exchange,
  taskId: string,
  cell: Cell | undefined,
): BodyKind | undefined {
  const ev = evidenceOf(ctx.recorder, exchange, taskId, cell);
  const body = isJsonBody(exchange)
    ? ({ kind: 'text', what: 'JSON' } as const)
    : describeBody(exchange.head, exchange.bytes);
  const labelled = /^video\//i.test(exchange.contentType);
  const video = body.kind === 'video' || (body.kind === 'binary' && labelled);
  const ok = is2xx(exchange) && video;
  const what = [
    `HTTP ${exchange.status}`,
    exchange.contentType || 'no content type',
    `${exchange.bytes} bytes`,
  ].join(', ');
  const notVideo = video ? '' : ', not a video';
  ctx.verdicts.expect(
    CHECKS.contentBinary,
    ok,
    `the download answered ${what}: ${describeBytes(body)}${notVideo}`,
    ev,
  );
  return ok ? body : undefined;
}

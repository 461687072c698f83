import { createHash, type Hash } from 'node:crypto';
import type { Exchange } from '../http-recorder.ts';
import { routePath, type Cell } from '../matrix/index.ts';
import type { RunContext } from '../run-context.ts';
import type { CheckDefinition } from '../verdicts.ts';
import { judgeable } from './answered.ts';
import { CHECKS } from './definitions.ts';
import { judgeVideoBytes } from './video-bytes.ts';
import { evidenceOf, is2xx } from './evidence.ts';

/**
 * The bytes of a completed task's download, beyond its signature: `Content-Length` against what
 * arrives, `Range` parts against the whole, a `HEAD` against the `GET`. The document says none of it
 * (HTTP does, and newer gateway versions answer HEAD and Range): each is an assumption, and a
 * deployment that does not honour Range or answer HEAD is not judged on it.
 */

const CELL: Cell = { route: 'getVideoContent', state: 'completed', caller: 'owner' };

type Ctx = Pick<RunContext, 'verdicts' | 'recorder' | 'coverage' | 'limits' | 'notes'>;

const mediaType = (value: string | undefined) => (value ?? '').split(';')[0]!.trim().toLowerCase();
const hashInto = (hash: Hash) => (chunk: Uint8Array) => void hash.update(chunk);

/**
 * A rule that applies only when the deployment does something it need not (a length announced, Range
 * honoured, HEAD answered): the check, its cell and the summary say why it judged nothing, once per run.
 */
function notJudged(ctx: Ctx, check: CheckDefinition & { rule: string }, why: string): void {
  ctx.verdicts.skip(check, `${why} (not judged)`);
  ctx.coverage.ruleNotJudged(check.rule, why, {
    routes: [CELL.route],
    states: [CELL.state],
    callers: [CELL.caller],
  });
  const note = `content: ${why}, so ${check.id} was not judged`;
  if (!ctx.notes.includes(note)) ctx.notes.push(note);
}

/**
 * `Content-Length`, when announced without a content coding (fetch decodes one), is what arrived. A
 * download without one (chunked) has no length to judge: not judged, saying so.
 */
export function judgeContentLength(ctx: Ctx, exchange: Exchange, taskId: string): void {
  const announced = exchange.headers['content-length'];
  const coding = exchange.headers['content-encoding'];
  if (!is2xx(exchange) || exchange.method === 'HEAD') return;
  if (announced === undefined) {
    const how = exchange.headers['transfer-encoding'] === undefined ? '' : ' (chunked)';
    return notJudged(ctx, CHECKS.contentLength, `a download came without Content-Length${how}`);
  }
  if (coding !== undefined && coding.toLowerCase() !== 'identity') return;
  const broke =
    exchange.bodyError === undefined ? '' : ` (the body broke off: ${exchange.bodyError})`;
  ctx.verdicts.expect(
    CHECKS.contentLength,
    Number(announced) === exchange.bytes && exchange.bodyError === undefined,
    `${exchange.method} ${exchange.path} announced Content-Length ` +
      `${announced} and ${exchange.bytes} bytes arrived${broke}`,
    evidenceOf(ctx.recorder, exchange, taskId, CELL),
  );
}

/** A HEAD, when answered with a 2xx, announces the length and media type of the GET. */
async function judgeHead(ctx: Ctx, taskId: string, whole: Exchange): Promise<void> {
  const head = await ctx.recorder.send(
    'content HEAD',
    'HEAD',
    routePath('getVideoContent', taskId),
  );
  if (!judgeable(ctx, head)) return;
  if (!is2xx(head)) return notJudged(ctx, CHECKS.contentHead, `HEAD answered HTTP ${head.status}`);
  const length = head.headers['content-length'];
  const type = head.headers['content-type'];
  const problems = [
    ...(length !== undefined && Number(length) !== whole.bytes
      ? [`Content-Length ${length} where the GET sent ${whole.bytes} bytes`]
      : []),
    ...(type !== undefined && mediaType(type) !== mediaType(whole.contentType)
      ? [`Content-Type ${type} where the GET sent ${whole.contentType || 'none'}`]
      : []),
  ];
  ctx.verdicts.expect(
    CHECKS.contentHead,
    problems.length === 0,
    `HEAD ${head.path} announced ${problems.join(' and ')}`,
    evidenceOf(ctx.recorder, head, taskId, CELL),
  );
}

/** Two ranges, when the first is honoured (206), reassemble to the whole, each with its Content-Range. */
async function judgeRanges(
  ctx: Ctx,
  taskId: string,
  whole: Exchange,
  digest: string,
): Promise<void> {
  const size = whole.bytes;
  if (size < 2) return;
  const half = Math.floor(size / 2);
  const parts = createHash('sha256');
  const path = routePath('getVideoContent', taskId);
  const ask = (range: string) =>
    ctx.recorder.send('content range', 'GET', path, {
      headers: { range: `bytes=${range}` },
      sink: hashInto(parts),
    });
  const first = await ask(`0-${half - 1}`);
  if (!judgeable(ctx, first)) return;
  if (first.status !== 206)
    return notJudged(ctx, CHECKS.contentRange, `Range answered HTTP ${first.status}, not honoured`);
  const second = await ask(`${half}-`);
  if (!judgeable(ctx, second)) return;
  const expected: [Exchange, number, number][] = [
    [first, 0, half - 1],
    [second, half, size - 1],
  ];
  const problems = expected.flatMap(([part, start, end]) => {
    const range = `bytes ${start}-${end}/${size}`;
    const said = (part.headers['content-range'] ?? '').replace(/\s+/g, ' ').trim().toLowerCase();
    if (part.status !== 206) return [`bytes=${start}- answered HTTP ${part.status}, not 206`];
    if (said !== range)
      return [`bytes=${start}- came with Content-Range "${said}", not "${range}"`];
    judgeContentLength(ctx, part, taskId);
    return part.bytes === end - start + 1 ? [] : [`bytes=${start}- sent ${part.bytes} bytes`];
  });
  if (problems.length === 0 && parts.digest('hex') !== digest)
    problems.push(`the two parts differ from the ${size} bytes of the whole download`);
  ctx.verdicts.expect(
    CHECKS.contentRange,
    problems.length === 0,
    `GET ${path} with Range: ${problems.join('; ')}`,
    evidenceOf(ctx.recorder, problems.length === 0 ? second : first, taskId, CELL),
  );
}

/**
 * Downloads a completed task once more, hashing it, then asks for its HEAD and for it in two ranges.
 * Run when the completed state's probes are confirmed (GETs are free; the task stays completed).
 */
export async function judgeContentIntegrity(ctx: Ctx, taskId: string): Promise<void> {
  const hash = createHash('sha256');
  const path = routePath('getVideoContent', taskId);
  const whole = await ctx.recorder.send('content, hashed', 'GET', path, { sink: hashInto(hash) });
  if (!judgeable(ctx, whole, CELL)) return;
  // A second look at the same content is judged as the first was (issue 31 item 6).
  if (judgeVideoBytes(ctx, whole, taskId, CELL) === undefined) return;
  judgeContentLength(ctx, whole, taskId);
  if (whole.bodyError !== undefined) return;
  const digest = hash.digest('hex');
  await judgeHead(ctx, taskId, whole);
  await judgeRanges(ctx, taskId, whole, digest);
}

import type { Exchange } from '../http-recorder.ts';
import type { CellSelector } from '../coverage-notes.ts';
import { describeCell, type Cell } from '../matrix/index.ts';
import { taskIdInPath } from '../matrix/routes.ts';
import { judgeIdentifiers } from './body-rules.ts';
import type { RunContext } from '../run-context.ts';
import { CHECKS } from './definitions.ts';
import { evidenceOf } from './evidence.ts';

type Ctx = Pick<RunContext, 'coverage' | 'limits' | 'verdicts' | 'recorder'>;

const only = (cell: Cell): CellSelector => ({
  routes: [cell.route],
  states: [cell.state],
  callers: [cell.caller],
});

/**
 * Whether an exchange got an answer a check can judge. One that did not (a time-out, a dropped
 * connection, a request the stopped run never sent) observes nothing: it is never judged, as passed or
 * as failed, and its cell, if it has one, is left unobserved with the reason.
 */
export function hasAnswer(
  ctx: Pick<RunContext, 'coverage' | 'limits'>,
  exchange: Exchange,
  cell?: Cell,
): boolean {
  if (exchange.networkError === undefined) return true;
  // Once the run has stopped, its reason says why better than each request's own failure.
  const why = ctx.limits.stopped ?? `no answer (${exchange.networkError})`;
  if (cell !== undefined) ctx.coverage.because(why, only(cell));
  return false;
}

/**
 * §1 on an answer no other rule reads (a 429, a 5xx to a query): about the task its path names, it
 * exposes no other task identifier, in its body or its headers (issue 31 item 6: a rule about a value's
 * form is judged wherever the value is). Judged in no cell: the answer says nothing of the task's state.
 */
export function judgeIdentifiersOfAnswer(ctx: Ctx, exchange: Exchange): void {
  const taskId = taskIdInPath(exchange.path);
  if (taskId === undefined || exchange.networkError !== undefined) return;
  judgeIdentifiers(ctx, exchange, taskId, evidenceOf(ctx.recorder, exchange, taskId));
}

/** `Retry-After` as RFC 9110 §10.2.3 has it: delay seconds or an HTTP date. */
const validRetryAfter = (value: string | undefined) =>
  value !== undefined && (/^\s*\d+\s*$/.test(value) || !Number.isNaN(Date.parse(value)));

/**
 * A 429 (§7, §8: quota or rate limiting) is recorded wherever it is seen, with whether it carries
 * `Retry-After` (an assumption: warns). It says nothing about the other rules of its cell, which stays
 * unjudged by them ("rate limited").
 */
export function judgeRateLimit(ctx: Ctx, exchange: Exchange, cell?: Cell): void {
  judgeIdentifiersOfAnswer(ctx, exchange);
  const retryAfter = exchange.headers['retry-after'];
  const where = cell === undefined ? `${exchange.method} ${exchange.path}` : describeCell(cell);
  const how =
    retryAfter === undefined
      ? 'without Retry-After'
      : `with Retry-After ${JSON.stringify(retryAfter)}, neither seconds nor a date`;
  ctx.verdicts.expect(
    CHECKS.rateLimitRetryAfter,
    validRetryAfter(retryAfter),
    `${where} answered 429 ${how}`,
    evidenceOf(ctx.recorder, exchange, undefined, cell),
  );
}

/** Whether an answer can be judged by the rules of its cell: it arrived, and it is not a 429. */
export function judgeable(ctx: Ctx, exchange: Exchange, cell?: Cell): boolean {
  if (!hasAnswer(ctx, exchange, cell)) return false;
  if (exchange.status !== 429) return true;
  judgeRateLimit(ctx, exchange, cell);
  if (cell !== undefined) ctx.coverage.because('rate limited (429)', only(cell));
  return false;
}

import type { Exchange } from '../http-recorder.ts';
import { serviceRequestIdOf } from '../reproduction.ts';
import type { UnconfirmedSubmission } from '../run-context.ts';
import { is2xx, is4xx } from './evidence.ts';

/** The public task ID a submission answer names, if it names one. */
export function publicIdOf(exchange: Exchange): string | undefined {
  const id = (exchange.json as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

function answered(exchange: Exchange): string {
  const { status } = exchange;
  if (exchange.networkError !== undefined) return `no answer: ${exchange.networkError}`;
  if (exchange.bodyError !== undefined)
    return `HTTP ${status}, its body broke off: ${exchange.bodyError}`;
  if (Math.floor(status / 100) === 3) return `HTTP ${status}, a redirect (never followed)`;
  return is2xx(exchange) ? `HTTP ${status} without a task ID` : `HTTP ${status}`;
}

/**
 * How a submission ended for the budget, as the document says tasks are created: `refused` when the
 * deployment refused (a 4xx, §7: the client's to fix; a 429, §7: rate limited, retried with backoff:
 * neither created a task; decisions/040) or the suite never sent it, `created` when the answer names
 * the task, and otherwise unconfirmed — a 5xx, no answer, a body that broke off, a 2xx without a
 * readable task ID, a redirect (not followed: following it sends the submission again) may each have
 * created a task (§7: "if task creation cannot be confirmed…").
 */
export function submissionOutcome(
  exchange: Exchange,
): 'created' | 'refused' | UnconfirmedSubmission {
  if (exchange.notSent === true || is4xx(exchange)) return 'refused';
  if (is2xx(exchange) && exchange.bodyError === undefined && publicIdOf(exchange) !== undefined)
    return 'created';
  return {
    request: `${exchange.method} ${exchange.path}`,
    clientRequestId: exchange.clientRequestId ?? '',
    requestId: exchange.clientRequestId ?? '',
    serviceRequestId: serviceRequestIdOf(exchange)?.value,
    answered: answered(exchange),
  };
}

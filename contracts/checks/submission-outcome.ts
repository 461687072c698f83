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
  if (exchange.networkError !== undefined) return `no answer: ${exchange.networkError}`;
  if (exchange.bodyError !== undefined)
    return `HTTP ${exchange.status}, its body broke off: ${exchange.bodyError}`;
  return is2xx(exchange) ? `HTTP ${exchange.status} without a task ID` : `HTTP ${exchange.status}`;
}

/**
 * How a submission ended for the budget: `refused` only when the deployment clearly refused (a 4xx, or
 * the suite never sent it), `created` when the answer names the task, and otherwise unconfirmed — a
 * 5xx, no answer, a body that broke off, a 2xx without a readable task ID may each have created a task.
 */
export function submissionOutcome(
  exchange: Exchange,
): 'created' | 'refused' | UnconfirmedSubmission {
  if (exchange.notSent === true || is4xx(exchange)) return 'refused';
  if (is2xx(exchange) && exchange.bodyError === undefined && publicIdOf(exchange) !== undefined)
    return 'created';
  return {
    request: `${exchange.method} ${exchange.path}`,
    requestId: exchange.requestId ?? '',
    serviceRequestId: serviceRequestIdOf(exchange)?.value,
    answered: answered(exchange),
  };
}

import type { Exchange } from '../http-recorder.ts';
import { matrixRoute } from '../matrix/index.ts';
import { serviceRequestIdOf } from '../reproduction.ts';
import type { UnconfirmedSubmission } from '../run-context.ts';
import { is2xx, is4xx } from './evidence.ts';

/** Where a native submission goes: the spec's template, the plugin's name any path segment. */
const NATIVE_SUBMISSION = new RegExp(
  `^${matrixRoute('createPluginTask').template.replace('{plugin_name}', '[^/]+')}$`,
);
/** The keys under which an answer of no shown shape may name its task. */
const ID_KEYS = new Set(['id', 'task_id', 'taskId']);
/** How deep an envelope of a deployment's own is looked into (`{data: {task: {id}}}` is 2). */
const ENVELOPE_DEPTH = 3;

const isId = (value: unknown): value is string => typeof value === 'string' && value !== '';

/**
 * The public task ID a submission answer names, if it names one. On the OpenAI paths, its `id` (§2.2,
 * §4.1 show the shape). The native path's shapes are not shown (§4.5): its `id`, else the task
 * identifier of the nearest object inside an envelope of the deployment's own (`{data: {id}}`,
 * `{result: {task_id}}`) that names one; two different ones at that depth name none (the suite does
 * not guess), and nor does an answer with no identifier at all. What is found is confirmed as the suite
 * follows the task: the ID must query it on every route (task.public-id-only).
 */
export function publicIdOf(exchange: Exchange): string | undefined {
  const json = exchange.json as { id?: unknown } | undefined;
  if (isId(json?.id)) return json.id;
  const native = exchange.method === 'POST' && NATIVE_SUBMISSION.test(exchange.path.split('?')[0]!);
  return native ? idInEnvelope(json) : undefined;
}

/** The one identifier named at the shallowest depth that names any (breadth first), if only one. */
function idInEnvelope(json: unknown): string | undefined {
  let level: unknown[] = [json];
  for (let depth = 0; depth <= ENVELOPE_DEPTH && level.length > 0; depth++) {
    const objects = level.filter(
      (v): v is Record<string, unknown> => v !== null && typeof v === 'object',
    );
    const named = new Set(
      objects.flatMap((o) =>
        Object.entries(o).flatMap(([key, value]) =>
          ID_KEYS.has(key) && isId(value) ? [value] : [],
        ),
      ),
    );
    if (named.size > 0) return named.size === 1 ? [...named][0] : undefined;
    level = objects.flatMap((o) => Object.values(o));
  }
  return undefined;
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
    serviceRequestId: serviceRequestIdOf(exchange)?.value,
    answered: answered(exchange),
  };
}

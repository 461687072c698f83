import type { OperationWith } from '../../src/spec/route-roles.ts';
import { canTransition, type Lifecycle, type VideoStatus } from '../../src/spec/index.ts';
import type { Exchange } from '../http-recorder.ts';
import { describeCell, type Cell, type CellState } from '../matrix/index.ts';
import type { RunContext } from '../run-context.ts';
import type { Evidence } from '../verdicts.ts';
import { judgeIdentifiers } from './body-rules.ts';
import { CHECKS } from './definitions.ts';
import { evidenceOf, is2xx, isJsonBody } from './evidence.ts';

/** The second family's native path (§4.5): its answers' shapes and status values, as the spec assumes them. */

/** Every native status value of `x-lifecycle.pluginMapping`. */
const nativeValues = (lifecycle: Lifecycle): string[] => [
  ...new Set(lifecycle.pluginMapping.rows.flatMap((r) => r.native)),
];

/** The OpenAI-form states a native status stands for (`x-lifecycle.pluginMapping`). */
const statesOf = (lifecycle: Lifecycle, native: unknown): VideoStatus[] =>
  lifecycle.pluginMapping.rows
    .filter((r) => r.native.includes(native as never))
    .map((r) => r.openai);

/** A native answer against the spec's upstream schema: `PluginSubmitted` or `PluginTask`. */
export function judgeNativeShape(
  ctx: Pick<RunContext, 'verdicts'>,
  exchange: Exchange,
  operation: OperationWith<{ family: 'second' }>,
  ev: Evidence,
): void {
  const schema = ctx.verdicts.spec.validators.response(operation, 200)!.body('application/json')!;
  const result = schema.validateFull(exchange.json);
  const what = operation === 'createPluginTask' ? 'submission answer' : 'task';
  ctx.verdicts.expect(
    CHECKS.nativeShape,
    result.valid,
    `the native ${what} differs from the upstream's shape: ${result.errors.join('; ')}`,
    ev,
  );
}

/**
 * The native status of a task the OpenAI form shows in `state`: a native value whose state, by the
 * mapping, is that state or one the task may have moved on to since (the native path may read the
 * upstream sooner than the OpenAI form), as `forms-agree` allows the wrapper.
 */
function judgeNativeStatus(
  ctx: Pick<RunContext, 'verdicts'>,
  status: unknown,
  state: CellState,
  ev: Evidence,
): void {
  const { lifecycle } = ctx.verdicts;
  if (!lifecycle.states.values.includes(state as VideoStatus)) return;
  const shown = state as VideoStatus;
  const states = statesOf(lifecycle, status);
  const agrees = states.some(
    (s) => s === shown || (s !== 'unknown' && canTransition(lifecycle, shown, s)),
  );
  const values = nativeValues(lifecycle).join(', ');
  ctx.verdicts.expect(
    CHECKS.nativeStatus,
    agrees,
    states.length === 0
      ? `the native path says status ${JSON.stringify(status)}, not a native value (${values})`
      : `the native path says ${JSON.stringify(status)} (${states.join(' or ')}) ` +
          `for a task the OpenAI form shows ${shown}`,
    ev,
  );
}

/**
 * The owner's native GET of a family task: it answers (not in the document's endpoint table: warns),
 * in the upstream's shape, with a status the mapping ties to the task's state, naming only the public
 * ID (§1). `credit` is the cell when the task stayed in its state while the probe ran.
 */
export function judgeNativeQuery(
  ctx: RunContext,
  exchange: Exchange,
  taskId: string,
  cell: Cell,
  credit: Cell | undefined,
): void {
  const ev = evidenceOf(ctx.recorder, exchange, taskId, credit);
  const answered = is2xx(exchange) && isJsonBody(exchange);
  ctx.verdicts.expect(
    CHECKS.nativeQuery,
    answered,
    `${describeCell(cell)} answered HTTP ${exchange.status}`,
    ev,
  );
  if (!answered) return;
  judgeNativeShape(ctx, exchange, 'getPluginTask', ev);
  const body = exchange.json as { id?: unknown; status?: unknown };
  // A status read while the task changed state is judged only where it was credited.
  if (credit !== undefined) judgeNativeStatus(ctx, body.status, cell.state, ev);
  judgeIdentifiers(ctx, exchange, taskId, ev);
  // §4.5 shows no shape: the public ID may be at `id` (the upstream's) or anywhere else (§1 asks only
  // that it be the one exposed, which judgeIdentifiers holds the rest of the answer to).
  ctx.verdicts.expect(
    CHECKS.publicIdOnly,
    namesValue(exchange.json, taskId),
    `the native path's answer names the task nowhere by its public ID ${taskId}` +
      (body.id === undefined ? '' : ` (its id is ${JSON.stringify(body.id)})`),
    ev,
  );
}

/** Whether `value` is a string somewhere in `json`, at any key and depth. */
function namesValue(json: unknown, value: string, depth = 0): boolean {
  if (json === value) return true;
  if (json === null || typeof json !== 'object' || depth > 32) return false;
  return Object.values(json).some((v) => namesValue(v, value, depth + 1));
}

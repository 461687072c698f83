import type { SpecValidators } from '../../src/spec/index.ts';
import type { Exchange } from '../http-recorder.ts';
import {
  describeCell,
  refusalStatuses,
  rulesIn,
  type Cell,
  type CellRuleId,
} from '../matrix/index.ts';
import type { RunContext } from '../run-context.ts';
import type { CheckDefinition, Evidence } from '../verdicts.ts';
import { judgeable } from './answered.ts';
import { judgeIdentifiers } from './body-rules.ts';
import { CHECKS } from './definitions.ts';
import { evidenceOf, is2xx, is4xx, isJsonBody } from './evidence.ts';

type Judged = Pick<RunContext, 'recorder' | 'verdicts' | 'coverage' | 'limits' | 'notes'>;

interface Refusal {
  readonly ctx: Judged;
  readonly exchange: Exchange;
  readonly cell: Cell;
  readonly ev: Evidence;
  /** "… answered HTTP 200 (1520 bytes, video/mp4)". */
  readonly answered: string;
  /** What the probe sent, when it was sent to be refused: "without model". */
  readonly what: string | undefined;
  /** The rule the probe was sent for, when it was sent to be refused. */
  readonly probe: CellRuleId | undefined;
}

/** A submission sent to be refused, for one rule: judged by that rule only, not by its cell's others. */
export interface RefusalProbe {
  readonly rule: CellRuleId;
  /** What the body does wrong, in words: "with an empty prompt", "without model". */
  readonly what: string;
}

/** The rules refusal probes are sent for (each judged on its own probes' answers only). */
const PROBE_RULES: ReadonlySet<CellRuleId> = new Set([
  'empty-prompt-invalid',
  'required-fields',
  'model-permissions',
  'multipart-upload-refused',
  'native-formats-not-mixed',
]);

/**
 * §5 on a model the key may not use: refused with a 4xx (§7 reads a permission as the client's to
 * fix). A 5xx leaves open whether a task was created (the gateway answers a model outside the key's
 * group 503 `model_not_found`): the rule is left unjudged there, saying so, and the submission is
 * unconfirmed for the budget.
 */
function judgeModelPermissions(r: Refusal): void {
  const { status } = r.exchange;
  if (status < 500) return expect(r, CHECKS.modelPermissions, is4xx(r.exchange));
  const why =
    `the forbidden model was answered HTTP ${status}, which leaves open whether a task was ` +
    "created (a model outside the key's group is answered 503 by the gateway): name one the key's " +
    'token itself may not use';
  r.ctx.verdicts.skip(CHECKS.modelPermissions, why);
  r.ctx.coverage.ruleNotJudged('model-permissions', why, {
    routes: [r.cell.route],
    states: [r.cell.state],
    callers: [r.cell.caller],
  });
  if (!r.ctx.notes.includes(why)) r.ctx.notes.push(why);
}

const refused = (e: Exchange) => e.status >= 400;

/** One refusal rule judged on one answer; the rule's own check and message. */
const JUDGES: Partial<Record<CellRuleId, (r: Refusal) => void>> = {
  'auth-required': (r) => expect(r, CHECKS.authRequired, is4xx(r.exchange)),
  'owner-only': (r) =>
    expect(
      r,
      r.cell.route === 'getVideoContent' ? CHECKS.ownerContent : CHECKS.ownerStatus,
      refused(r.exchange),
    ),
  'unknown-task-error': (r) => expect(r, CHECKS.unknownTaskError, refused(r.exchange)),
  'content-after-completion': (r) => expect(r, CHECKS.contentBeforeCompletion, refused(r.exchange)),
  'content-json-errors': (r) =>
    expect(r, CHECKS.contentJsonErrors, refused(r.exchange) && isJsonBody(r.exchange)),
  'empty-prompt-invalid': (r) => expect(r, CHECKS.emptyPrompt, is4xx(r.exchange)),
  'required-fields': (r) => expect(r, CHECKS.requiredFields, is4xx(r.exchange)),
  'model-permissions': judgeModelPermissions,
  'multipart-upload-refused': (r) => expect(r, CHECKS.fileUpload, is4xx(r.exchange)),
  'native-formats-not-mixed': (r) => expect(r, CHECKS.nativeMixed, is4xx(r.exchange)),
  'error-envelope': (r) => {
    if (!refused(r.exchange)) return;
    if (r.cell.route !== 'getVideoContent') expect(r, CHECKS.errorJson, isJsonBody(r.exchange));
    if (!isJsonBody(r.exchange)) return;
    const schema = r.cell.route.endsWith('PluginTask') ? 'PluginErrorOrGateway' : 'ErrorBody';
    const valid = validEnvelope(r.ctx.verdicts.spec.validators, schema, r.exchange.json);
    r.ctx.verdicts.expect(
      CHECKS.errorEnvelope,
      valid,
      `${describeCell(r.cell)}: the error body has none of the gateway's envelopes`,
      r.ev,
    );
  },
  'error-status-code': (r) => {
    if (!refused(r.exchange)) return;
    const wanted = refusalStatuses(r.cell, r.probe);
    r.ctx.verdicts.expect(
      CHECKS.errorStatusCode,
      wanted.includes(r.exchange.status),
      `${describeCell(r.cell)}: HTTP ${r.exchange.status} where the gateway answers ${wanted.join(' or ')}`,
      r.ev,
    );
  },
};

function validEnvelope(
  validators: SpecValidators,
  schema: 'PluginErrorOrGateway' | 'ErrorBody',
  json: unknown,
): boolean {
  if (validators.schema('ErrorBody').validateFull(json).valid) return true;
  return (
    schema === 'PluginErrorOrGateway' &&
    validators.schema('PluginErrorBody').validateFull(json).valid
  );
}

function expect(r: Refusal, check: CheckDefinition, ok: boolean): void {
  const sent = r.what === undefined ? '' : `, ${r.what},`;
  r.ctx.verdicts.expect(check, ok, `${describeCell(r.cell)}${sent} ${r.answered}`, r.ev);
}

function answered(exchange: Exchange): string {
  const kind = isJsonBody(exchange)
    ? 'JSON'
    : `${exchange.contentType || 'no content type'}, ${exchange.bytes} bytes`;
  return `answered HTTP ${exchange.status} (${kind})${is2xx(exchange) ? ' instead of refusing' : ''}`;
}

/**
 * Judges an answer in a cell where the service must refuse, by every refusal rule the matrix declares
 * for that cell: the key (§5), ownership (§5), a missing task (§5, §4.4), unfinished content (§3 rule 2),
 * JSON errors (§4.4), no other identifier in the body (§1), and the assumed envelope and status code;
 * a probe's own rule (an empty prompt §7, a missing or mistyped field §2.1, a model the key may not use
 * §5, a file upload §2.1, mixed formats §4.5) only on that probe's answer. `attribute: false` judges
 * without crediting the cell (the task may have changed state while the probe ran).
 */
export function judgeRefusal(
  ctx: Judged,
  exchange: Exchange,
  cell: Cell,
  options: {
    readonly taskId?: string | undefined;
    readonly attribute?: boolean;
    readonly probe?: RefusalProbe | undefined;
  } = {},
): void {
  if (!judgeable(ctx, exchange, cell)) return;
  const attributed = options.attribute ?? true;
  const ev = evidenceOf(ctx.recorder, exchange, options.taskId, attributed ? cell : undefined);
  const { probe } = options;
  const refusal: Refusal = {
    ctx,
    exchange,
    cell,
    ev,
    answered: answered(exchange),
    what: probe?.what,
    probe: probe?.rule,
  };
  for (const rule of rulesIn(cell))
    if (!PROBE_RULES.has(rule) || rule === probe?.rule) JUDGES[rule]?.(refusal);
  if (options.taskId !== undefined && rulesIn(cell).includes('public-id-only'))
    judgeIdentifiers(ctx, exchange, options.taskId, ev);
}

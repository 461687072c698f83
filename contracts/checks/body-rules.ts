import type { Exchange } from '../http-recorder.ts';
import type { RunContext } from '../run-context.ts';
import type { Evidence } from '../verdicts.ts';
import { CHECKS } from './definitions.ts';
import { isJsonBody } from './evidence.ts';
import {
  foreignHeaderIdentifiers,
  foreignIdentifiers,
  isResultAddress,
  RESULT_ADDRESS,
  resultAddressOf,
  type AddressForm,
} from './identifiers.ts';

/** Rules that hold over whole bodies, judged on every JSON answer about a task (§1, §2.2, §2.3, §4.2). */

type Judged = Pick<RunContext, 'verdicts'>;

/**
 * §1: no task identifier but the public one, judged by the value at any key and depth of the body
 * (a body that is not JSON has none) and in the answer's headers.
 */
export function judgeIdentifiers(
  { verdicts: v }: Judged,
  exchange: Exchange,
  publicId: string,
  ev: Evidence,
): void {
  const foreign = [
    ...(isJsonBody(exchange) ? foreignIdentifiers(exchange.json, publicId) : []),
    ...foreignHeaderIdentifiers(exchange.headers, publicId),
  ];
  const shown = foreign
    .slice(0, 3)
    .map((f) => `${f.path} = ${JSON.stringify(f.value)}`)
    .join(', ');
  v.expect(
    CHECKS.noOtherIdentifier,
    foreign.length === 0,
    `the answer about ${publicId} exposes another task identifier: ${shown}`,
    ev,
  );
}

/** Which result address a body holds, and whether its task has completed (its address is then required). */
export interface AddressRule {
  readonly form: AddressForm;
  readonly completed: boolean;
}

const ADDRESS_CHECK = {
  openai: CHECKS.resultAddress,
  wrapper: CHECKS.wrapperResultAddress,
} as const;

/**
 * `metadata.url` (§2.2) or the wrapper's `data.result_url` (§2.3), each judged by the check of its own
 * section: present and not empty, an absolute http(s) URL in every state; on a completed task, not
 * empty either (a completed task's address is its result, §4.2). Absent is the presence rules' business.
 */
export function judgeResultAddress(
  { verdicts: v }: Judged,
  exchange: Exchange,
  ev: Evidence,
  rule: AddressRule,
): void {
  if (!isJsonBody(exchange)) return;
  const { present, value } = resultAddressOf(exchange.json, rule.form);
  const ok = !present || isResultAddress(value, rule.completed);
  const empty = value === '' || value === null;
  const why = empty
    ? 'empty on a completed task: no result address'
    : 'not an absolute http(s) address';
  const shown = JSON.stringify(value)?.slice(0, 80) ?? 'undefined';
  v.expect(
    ADDRESS_CHECK[rule.form],
    ok,
    `${RESULT_ADDRESS[rule.form].path} = ${shown}: ${why}`,
    ev,
  );
}

/** Both whole-body rules on an answer the owner reads. */
export function judgeBody(
  ctx: Judged,
  exchange: Exchange,
  publicId: string,
  ev: Evidence,
  address: AddressRule,
): void {
  judgeIdentifiers(ctx, exchange, publicId, ev);
  judgeResultAddress(ctx, exchange, ev, address);
}

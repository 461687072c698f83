import type { Exchange } from '../http-recorder.ts';
import type { RunContext } from '../run-context.ts';
import type { Evidence } from '../verdicts.ts';
import { CHECKS } from './definitions.ts';
import { isJsonBody } from './evidence.ts';
import { foreignIdentifiers, isResultAddress, resultAddresses } from './identifiers.ts';

/** Rules that hold over whole bodies, judged on every JSON answer about a task (§1, §2.2, §2.3). */

type Judged = Pick<RunContext, 'verdicts'>;

/** §1: no task identifier but the public one, at any depth (a body that is not JSON has none). */
export function judgeIdentifiers(
  { verdicts: v }: Judged,
  exchange: Exchange,
  publicId: string,
  ev: Evidence,
): void {
  if (!isJsonBody(exchange)) return;
  const foreign = foreignIdentifiers(exchange.json, publicId);
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

/** §2.2, §2.3: a result address, when present and not empty, is an absolute http(s) URL. */
export function judgeResultAddresses(
  { verdicts: v }: Judged,
  exchange: Exchange,
  ev: Evidence,
): void {
  if (!isJsonBody(exchange)) return;
  const bad = resultAddresses(exchange.json).filter((a) => !isResultAddress(a.value));
  const shown = bad.map((a) => `${a.path} = ${JSON.stringify(a.value)?.slice(0, 80)}`);
  v.expect(
    CHECKS.resultAddress,
    bad.length === 0,
    `not an absolute http(s) address: ${shown.join(', ')}`,
    ev,
  );
}

/** Both whole-body rules on an answer the owner reads. */
export function judgeBody(ctx: Judged, exchange: Exchange, publicId: string, ev: Evidence): void {
  judgeIdentifiers(ctx, exchange, publicId, ev);
  judgeResultAddresses(ctx, exchange, ev);
}

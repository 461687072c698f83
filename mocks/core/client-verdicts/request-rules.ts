import { evidenceOf, type CallerTrack } from './caller-track.ts';
import type { Judging } from './judging.ts';
import { RequestFlag, type Observation } from './observation.ts';
import { RULE, type RuleId } from './rule-table.ts';

/** What each request-only flag breaks, and how the verdict words it. */
const FLAG_RULES: readonly { flag: number; rule: (o: Observation) => RuleId; says: string }[] = [
  {
    flag: RequestFlag.noBearer,
    rule: () => 'authorization-header',
    says: 'sent a request without Authorization: Bearer <key>',
  },
  {
    flag: RequestFlag.notJson,
    rule: () => 'json-content-type',
    says: 'sent a body without Content-Type: application/json',
  },
  {
    flag: RequestFlag.multipart,
    rule: (o) => (o.secondFamily ? 'second-family-no-multipart' : 'multipart-submission'),
    says: 'sent a submission as multipart/form-data',
  },
  {
    flag: RequestFlag.asset,
    rule: () => 'second-family-no-asset-references',
    says: 'passed an asset:// reference to a second-family model',
  },
  {
    flag: RequestFlag.nativeMixed,
    rule: () => 'native-formats-not-mixed',
    says: 'sent OpenAI-form fields on the native path',
  },
];

/** Rules a request breaks by itself (§5 headers, §2.1 second family, §4.5 formats), one verdict per caller. */
export function judgeRequest(j: Judging, caller: CallerTrack, o: Observation): void {
  for (const { flag, rule, says } of FLAG_RULES) {
    if ((o.flags & flag) === 0) continue;
    const number = RULE[rule(o)];
    if (!j.repeat(number, caller, undefined, o.at))
      j.breach(number, caller, undefined, o.at, () => ({
        message: `${says} (${o.method} ${o.path}, answered ${o.status})`,
        requests: [evidenceOf(o)],
      }));
  }
}

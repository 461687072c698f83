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
  {
    flag: RequestFlag.notParsable,
    rule: () => 'json-body',
    says: 'sent a body labelled application/json that is not JSON',
  },
  {
    flag: RequestFlag.missingField,
    rule: () => 'required-fields',
    says: 'sent a JSON submission without a field §2.1 requires (model, prompt)',
  },
  {
    flag: RequestFlag.unreadableReference,
    rule: () => 'second-family-readable-references',
    says:
      'passed the second family a reference URL the upstream cannot read (a loopback, private or ' +
      'local host, or a file: or blob: URL)',
  },
  {
    flag: RequestFlag.previewReference,
    rule: () => 'second-family-no-preview-references',
    says: 'passed the second family a reference URL signed with an expiry (likely a short-lived preview)',
  },
];

/** Rules a request breaks by itself (§5 headers, §2.1 second family, §4.5 formats), one verdict per caller. */
export function judgeRequest(j: Judging, caller: CallerTrack, o: Observation): void {
  for (const { flag, rule, says } of FLAG_RULES) {
    if ((o.flags & flag) === 0) continue;
    const number = RULE[rule(o)];
    j.breach(number, caller, undefined, o.at, () => ({
      message: `${says} (${o.method} ${o.path}, answered ${o.status})`,
      requests: [evidenceOf(o)],
    }));
  }
}

/**
 * §1 the client keeps the ID: a query or content request, with a key the mock knows, for a task the
 * mock never issued to that key's user (answered as missing). Unknown keys are no caller (401).
 */
export function unissuedTask(j: Judging, caller: CallerTrack, o: Observation): void {
  j.breach(RULE['keep-task-id'], caller, undefined, o.at, () => ({
    message:
      `asked for a task the mock never issued to this caller (${o.method} ${o.path}, answered ` +
      `${o.status}): an ID mangled, mixed up with another user's, or from before a reset`,
    requests: [evidenceOf(o)],
  }));
}

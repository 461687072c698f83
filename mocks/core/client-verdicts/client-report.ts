import type { components } from '../../../src/generated/mock-control.ts';
import { maskKey, Redactor } from '../../../src/redaction/redactor.ts';
import type { ClientOutcome, ClientRule } from '../../../src/spec/client-rules.ts';
import { TOOL_HEADER } from '../../../src/tool-mark.ts';
import type { Clock } from '../clock.ts';
import { BUILT_IN_TOKENS } from '../keys/tokens.ts';
import { FORM_BITS, type CallerTrack } from './caller-track.ts';
import type { ClientJudge } from './client-judge.ts';
import { SITUATIONS, situationBit, type Situation } from './situations.ts';
import type { Evidence, VerdictEntry } from './verdict-book.ts';

type Schemas = components['schemas'];
/** What `GET /__mock/client-report` answers and `service.clientReport()` returns (`spec/mock-control.yaml`). */
export type ClientReport = Schemas['ClientReport'];
export type ClientVerdict = Schemas['ClientVerdict'];

export interface ReportSources {
  readonly clock: Clock;
  /** The user behind a key the mock knows (reports name users, never keys). */
  readonly userOf: (key: string) => string | undefined;
}

const ORDER: Readonly<Record<ClientOutcome, number>> = { violation: 0, advice: 1, note: 2 };

/**
 * The verdicts and the client coverage so far, as JSON a client team reads: callers masked
 * (`maskKey`), users named, and every string redacted of every caller's key, whatever field it hid in.
 */
export function buildClientReport(judge: ClientJudge, sources: ReportSources): ClientReport {
  judge.settle(); // a host that listens for late violations settled first (`ClientVerdicts.report`)
  const callers = [...judge.callers()];
  const label = (caller: string) => callerLabel(caller, sources);
  const verdicts = [...judge.book.entries()]
    .sort((a, b) => ORDER[a.rule.outcome] - ORDER[b.rule.outcome] || a.firstAt - b.firstAt)
    .map((entry) => verdictOf(entry, label));
  const count = (outcome: ClientOutcome) => verdicts.filter((v) => v.outcome === outcome).length;
  const notListed = Object.fromEntries(judge.book.notListed());
  const { clock } = sources;
  const report: ClientReport = {
    generatedAt: new Date(clock.now()).toISOString(),
    clock: { now: clock.now(), mode: clock.mode, speed: clock.speed },
    counts: {
      violations: count('violation'),
      advice: count('advice'),
      notes: count('note'),
      callers: callers.length,
      requests: callers.reduce((sum, c) => sum + c.requests, 0),
    },
    verdicts,
    tools: { header: TOOL_HEADER, ...judge.tools.counts() },
    coverage: coverageOf(callers, judge.anonymousMet, label),
    rules: Object.values(judge.rules)
      .concat(judgedNot(judge))
      .map((rule) => ({
        id: rule.id,
        section: rule.section,
        outcome: rule.outcome,
        judged: rule.judged,
        ...(rule.situation === undefined ? {} : { situation: rule.situation }),
        ...(rule.breach === undefined ? {} : { breach: rule.breach }),
        ...(rule.why === undefined ? {} : { why: rule.why }),
        advice: rule.advice,
        parameters: { ...rule.parameters },
      })),
    limits: {
      ...judge.limits,
      tasksForgotten: callers.reduce((sum, c) => sum + c.forgotten, 0),
      requestsOfUntrackedCallers: judge.untracked,
      requestsOfUnknownKeys: judge.unknownKeys,
      requestsNotJudged: judge.notJudged.requests,
      ...(judge.notJudged.firstFailure === undefined
        ? {}
        : { firstJudgeFailure: judge.notJudged.firstFailure }),
      verdictsNotListed: notListed,
    },
  };
  return new Redactor(secretKeys(callers.map((c) => c.caller))).redactDeep(report);
}

/** Verdict entries as the report shows them (a host that fails the offending request prints these). */
export function verdictsOf(
  entries: readonly VerdictEntry[],
  sources: ReportSources,
): ClientVerdict[] {
  const verdicts = entries.map((entry) => verdictOf(entry, (c) => callerLabel(c, sources)));
  return new Redactor(secretKeys(entries.map((e) => e.caller))).redactDeep(verdicts);
}

/** The mock's built-in keys are published (README, docs/mock.md): a report may name them (issue 35). */
const PUBLISHED_KEYS: ReadonlySet<string> = new Set(BUILT_IN_TOKENS.map((t) => t.key));

/** The callers' keys a report is redacted of: every one but the mock's published demo keys. */
const secretKeys = (callers: readonly string[]): string[] =>
  callers.map(bearerKey).filter((k) => k !== undefined && !PUBLISHED_KEYS.has(k)) as string[];

function judgedNot(judge: ClientJudge): ClientRule[] {
  return judge.allRules.filter((rule) => !rule.judged);
}

function verdictOf(entry: VerdictEntry, label: (caller: string) => CallerName): ClientVerdict {
  const { rule } = entry;
  const who = label(entry.caller);
  return {
    rule: rule.id,
    outcome: rule.outcome,
    section: rule.section,
    caller: who.caller,
    ...(who.user === undefined ? {} : { user: who.user }),
    ...(entry.taskId === undefined ? {} : { taskId: entry.taskId }),
    message: entry.message,
    advice: rule.advice,
    ...(rule.situation === undefined ? {} : { situation: rule.situation }),
    count: entry.count,
    firstAt: new Date(entry.firstAt).toISOString(),
    lastAt: new Date(entry.lastAt).toISOString(),
    requests: entry.requests.map(requestOf),
  };
}

function requestOf(e: Evidence): ClientVerdict['requests'][number] {
  const base = {
    method: e.method,
    path: e.path,
    at: new Date(e.at).toISOString(),
    atMs: e.at,
    status: e.status,
  };
  return e.lost === true ? { ...base, lost: true } : base;
}

interface CallerName {
  readonly caller: string;
  readonly user?: string | undefined;
}

/** `sk-…lice` (with its user when the mock knows the key), or `(no key)` (no Bearer key). */
function callerLabel(caller: string, sources: ReportSources): CallerName {
  const key = bearerKey(caller);
  if (key === undefined) return { caller: '(no key)' };
  return { caller: maskKey(key), user: sources.userOf(key) };
}

function bearerKey(caller: string): string | undefined {
  return caller.startsWith('Bearer ') ? caller.slice(7).trim() : undefined;
}

function coverageOf(
  callers: readonly CallerTrack[],
  anonymousMet: number,
  label: (caller: string) => CallerName,
): ClientReport['coverage'] {
  const metBy = (s: Situation) => callers.filter((c) => (c.met & situationBit(s.id)) !== 0);
  const anonymous = (s: Situation) => (anonymousMet & situationBit(s.id)) !== 0;
  const anyApplies = (s: Situation) => callers.some((c) => applies(s, c));
  return {
    situations: SITUATIONS.map((s) => ({
      id: s.id,
      description: s.description,
      section: s.section,
      produce: s.produce,
      applicable: anyApplies(s) || anonymous(s),
      met: metBy(s).length > 0 || anonymous(s),
      callers: metBy(s).map((c) => label(c.caller).caller),
    })),
    callers: callers.map((c) => {
      const who = label(c.caller);
      const applicable = SITUATIONS.filter((s) => applies(s, c));
      return {
        caller: who.caller,
        ...(who.user === undefined ? {} : { user: who.user }),
        requests: c.requests,
        met: applicable.filter((s) => (c.met & situationBit(s.id)) !== 0).map((s) => s.id),
        unmet: applicable.filter((s) => (c.met & situationBit(s.id)) === 0).map((s) => s.id),
        notApplicable: SITUATIONS.filter((s) => !applies(s, c)).map((s) => s.id),
      };
    }),
  };
}

function applies(s: Situation, caller: CallerTrack): boolean {
  if (s.appliesTo === undefined) return true;
  if (s.appliesTo === 'second-family') return caller.secondFamily;
  return (caller.forms & FORM_BITS[s.appliesTo]) !== 0;
}

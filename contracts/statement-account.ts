import {
  readClientRules,
  serviceContract,
  serviceSpec,
  type ClientRule,
  type OpenApiDocument,
} from '../src/spec/index.ts';
import { hasPointer } from '../src/spec/json-pointer.ts';
import { traceStatements } from '../src/spec/statement-trace.ts';
import {
  KIND_LABEL,
  STATEMENT_KINDS,
  type Statement,
  type StatementKind,
} from '../src/spec/statements-table.ts';
import { CHECKS } from './checks/definitions.ts';
import {
  foreignChecks,
  proofClass,
  ruleOfCheck,
  statementParts,
  type PartStatus,
  type ProofClass,
  type SelfProofCase,
  type StatementPart,
} from './statement-proof.ts';

/**
 * The account of the statement table (decisions/020): every statement of the service document, how
 * many are judged by contract checks, by client rules, played by the mock, and each one that is not
 * judged with the reason; and what is wrong with the table (`problems`): a statement of the document
 * in none of its entries, or an entry naming a check, a rule, a client rule or a spec element that
 * does not exist. `videotask lint-spec --trace` prints it.
 */
export interface StatementAccount {
  readonly statements: number;
  readonly byKind: Readonly<Record<StatementKind, number>>;
  /** Statements a contract check judges. */
  readonly judged: number;
  /** Statements a client rule judges: one of `x-client-rules` the mock judges on a client's traffic. */
  readonly clientRules: number;
  /** Statements a test shows the mock (or the project's own client and tools) playing. */
  readonly mock: number;
  /** Server rules with a written reason instead of a check. */
  readonly reasons: number;
  /** Statements with a part no check judges yet, although one could. */
  readonly gaps: number;
  /** Words of the document in no statement, statements not in the document, statements with no place. */
  readonly unmapped: number;
  readonly server: {
    readonly total: number;
    readonly judged: number;
    readonly reasons: number;
    /** Neither a check nor a reason: judged by nothing yet, a gap says why. */
    readonly unjudged: number;
  };
  /** The client rules and recommendations of the document, judged by the mock's client rules. */
  readonly client: {
    readonly total: number;
    /** Named with a rule of `x-client-rules` the mock judges. */
    readonly judged: number;
    /** No rule judges it, and why: the `why` of the `judged: false` rules it names, or a clientReason. */
    readonly reasons: number;
    /** Neither a judged rule nor a reason. */
    readonly unjudged: number;
  };
  /** Whether the spec declares `x-client-rules` (issue 20), so client rules can be named. */
  readonly clientRulesDeclared: boolean;
  /** Each statement judged neither by a check nor by a client rule, and why. */
  readonly notJudged: readonly AccountLine[];
  /** Each client rule and recommendation no client rule judges, and why. */
  readonly clientNotJudged: readonly AccountLine[];
  /** Each statement with a gap. */
  readonly gapList: readonly AccountLine[];
  /** Each statement no test shows played. */
  readonly notPlayed: readonly AccountLine[];
  /** What is wrong with the table: the document's words it lacks, names that do not exist. */
  readonly problems: readonly string[];
  /**
   * Judged means proven, per statement (issue 31 item 7): of the statements that name a contract
   * check, how many have every part judged by a self-proof case caught by the statement's own check
   * (`judged`), some parts judged and others gaps (`judgedInPart`), parts judged only by assumption
   * checks (`assumptionOnly`: a warning, a failure only with --strict), only parts no case can break
   * (`reasons`), or no part proven (`unproven`); and the parts by status.
   */
  readonly proof: {
    /** Self-proof cases read: the generated mutants of each rule, and the named defects. */
    readonly cases: number;
    /** Statements that name a contract check. */
    readonly named: number;
    readonly judged: number;
    readonly judgedInPart: number;
    readonly assumptionOnly: number;
    readonly reasons: number;
    readonly unproven: number;
    readonly parts: Readonly<Record<PartStatus, number>>;
  };
  /** Each statement that names a contract check: its parts, judged, assumption-only, reasons, gaps. */
  readonly proofByStatement: readonly StatementProof[];
  /**
   * Statements with both sides, a deployment's (contract checks) and a client's (client rules),
   * judged on one side only.
   */
  readonly oneSided: readonly AccountLine[];
}

/** One statement's parts, separated by what proves them (or why nothing does). */
export interface StatementProof {
  readonly id: string;
  readonly section: string;
  readonly kind: StatementKind;
  readonly class: ProofClass;
  readonly judged: readonly StatementPart[];
  readonly assumptionOnly: readonly StatementPart[];
  readonly reasons: readonly StatementPart[];
  readonly gaps: readonly StatementPart[];
}

export interface AccountLine {
  readonly id: string;
  readonly section: string;
  readonly kind: StatementKind;
  readonly text: string;
  readonly why: string;
}

export interface AccountInput {
  /** The service document's Markdown. */
  readonly document: string;
  readonly documentName?: string;
  readonly statements: readonly Statement[];
  /** The spec the pointers and client rules are resolved in (default: the service spec). */
  readonly spec?: OpenApiDocument | undefined;
  /** The self-proof's cases (cli/self-proof-cases.ts); none: no statement is proven. */
  readonly cases?: readonly SelfProofCase[] | undefined;
}

const CHECK_IDS = new Set<string>(Object.values(CHECKS).map((c) => c.id));

/** The rules of a spec's `x-client-rules`, by id. */
export type ClientRules = ReadonlyMap<string, ClientRule>;

/** The spec's `x-client-rules` by id (read as the mock reads them), or undefined when it has none. */
export function declaredClientRules(spec: OpenApiDocument): ClientRules | undefined {
  if (spec['x-client-rules'] === undefined) return undefined;
  return new Map(readClientRules(spec).map((rule) => [rule.id, rule]));
}

/** The kinds of statement a client keeps: what the mock's client rules judge. */
export const CLIENT_KINDS: ReadonlySet<StatementKind> = new Set(['client', 'recommendation']);

/** The rules a statement names that the mock judges on a client's traffic. */
export const judgingRules = (s: Statement, rules: ClientRules | undefined): string[] =>
  s.clientRules.filter((id) => rules?.get(id)?.judged === true);

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * Why no client rule judges a statement: its clientReason, or the `why` x-client-rules gives for each
 * rule it names that traffic cannot judge. Undefined when neither says.
 */
export function clientWhy(s: Statement, rules: ClientRules | undefined): string | undefined {
  if (s.clientReason !== undefined) return s.clientReason;
  const whys = s.clientRules.flatMap((id) => {
    const rule = rules?.get(id);
    return rule === undefined || rule.judged ? [] : [`${id}: ${oneLine(rule.why ?? '')}`];
  });
  return whys.length === 0
    ? undefined
    : `not judged from traffic (x-client-rules ${whys.join('; ')})`;
}

/** Why a statement no check or client rule judges is not judged. */
function whyNotJudged(s: Statement, clientRules: ClientRules | undefined): string {
  const explained = s.reason ?? clientWhy(s, clientRules) ?? s.gap;
  if (explained !== undefined) return explained;
  switch (s.kind) {
    case 'information':
      return s.note ?? 'a fact or a definition: nothing to keep';
    case 'not-shown':
      return s.note ?? 'the document shows nothing here: we invent no guarantee';
    case 'admin':
      return s.note ?? "an administrator's step, played by verify-family and monitor";
    case 'server':
      return 'no check, no reason';
    default: {
      const open = unexplained(clientRules);
      return s.note === undefined ? open : `${open}. ${s.note}`;
    }
  }
}

/** Why a client rule or recommendation that no client rule judges and nothing explains is open. */
const unexplained = (clientRules: ClientRules | undefined) =>
  clientRules === undefined
    ? 'no client rule: the spec declares no x-client-rules'
    : 'no client rule names it yet';

/** What a statement names that does not exist, or a field its kind does not take. */
function referenceProblems(
  s: Statement,
  spec: OpenApiDocument,
  clientRules: ClientRules | undefined,
): string[] {
  const rules = serviceContract().lifecycle.rules;
  const at = `statement ${s.id}`;
  return [
    ...s.checks
      .filter((id) => !CHECK_IDS.has(id))
      .map((id) => `${at} names the check ${id}, which contracts/checks/definitions.ts lacks`),
    ...s.rules
      .filter((id) => !rules.has(id))
      .map((id) => `${at} names the rule ${id}, which x-lifecycle.rules lacks`),
    ...s.spec
      .filter((pointer) => !hasPointer(spec, pointer))
      .map((pointer) => `${at} points at ${pointer}, which spec/openapi.yaml lacks`),
    ...s.clientRules
      .filter((id) => clientRules === undefined || !clientRules.has(id))
      .map((id) =>
        clientRules === undefined
          ? `${at} names the client rule ${id}, but the spec declares no x-client-rules`
          : `${at} names the client rule ${id}, which x-client-rules lacks`,
      ),
    ...(s.reason !== undefined && (s.kind !== 'server' || s.checks.length > 0)
      ? [`${at}: a reason says why no check can judge a server rule; use note (or gap)`]
      : []),
    ...clientProblems(s, clientRules),
    ...foreignChecks(s).map(
      (id) =>
        `${at} names the check ${id}, which judges the rule ${ruleOfCheck(id)} it does not name: ` +
        'add the rule if the statement states it, or drop the check',
    ),
    ...Object.keys(s.partReasons ?? {})
      .filter((key) => !s.rules.includes(key) && !s.checks.includes(key))
      .map((key) => `${at} gives a partReason for ${key}, neither a rule nor a check it names`),
    ...(s.kind === 'server' &&
    s.checks.length === 0 &&
    s.reason === undefined &&
    s.gap === undefined
      ? [
          `${at} is a server rule with neither a check nor a reason (nor a gap saying what is missing)`,
        ]
      : []),
  ];
}

/**
 * The client rules a statement names whose basis is not its kind's: a recommendation (§8) is judged
 * by advice, a client rule of the document by a violation (or, where our reading, a note).
 */
function basisProblems(s: Statement, clientRules: ClientRules | undefined): string[] {
  if (!CLIENT_KINDS.has(s.kind)) return [];
  const advice = s.kind === 'recommendation';
  return s.clientRules.flatMap((id) => {
    const rule = clientRules?.get(id);
    // A documented rule judged as advice because a request shows only a likely breach stays a client rule.
    if (rule === undefined || (rule.outcome === 'advice' && !rule.uncertain) === advice) return [];
    return [
      `statement ${s.id} is a ${KIND_LABEL[s.kind]}, but x-client-rules ${id} is ` +
        `${rule.outcome === 'advice' ? 'a recommendation (advice)' : `judged as a ${rule.outcome}`}: ` +
        'make the two agree',
    ];
  });
}

/** A clientReason where it does not belong; a client rule or recommendation with no account. */
function clientProblems(s: Statement, clientRules: ClientRules | undefined): string[] {
  const at = `statement ${s.id}`;
  const basis = basisProblems(s, clientRules);
  if (basis.length > 0) return basis;
  if (s.clientReason !== undefined && !CLIENT_KINDS.has(s.kind))
    return [`${at}: a clientReason is for a client rule or a recommendation; use note`];
  if (s.clientReason !== undefined && s.clientRules.length > 0)
    return [
      `${at}: a clientReason is for a statement that names no client rule (a rule it names ` +
        'judges it, or says in x-client-rules why traffic cannot); use note',
    ];
  if (clientRules !== undefined && CLIENT_KINDS.has(s.kind) && s.clientRules.length === 0)
    return s.clientReason === undefined
      ? [`${at} is a ${KIND_LABEL[s.kind]} with neither a client rule nor a clientReason`]
      : [];
  return [];
}

/** `§3` of `§3 rule 1`: the section a rule cites, as statements name theirs. */
const sectionOf = (source: string) => /^§\d+(\.\d+)*/.exec(source)?.[0] ?? source;

/**
 * The rules of x-client-rules no statement of the section they cite names: a rule for clients the
 * table does not place in the document (or one citing the wrong section).
 */
function unplacedClientRules(
  statements: readonly Statement[],
  clientRules: ClientRules | undefined,
): string[] {
  return [...(clientRules?.values() ?? [])]
    .filter((rule) => {
      const section = sectionOf(rule.section);
      return !statements.some((s) => s.section === section && s.clientRules.includes(rule.id));
    })
    .map(
      (rule) =>
        `x-client-rules ${rule.id} cites ${rule.section}, but no statement of ` +
        `${sectionOf(rule.section)} names it: add it to the clientRules of the statement it judges`,
    );
}

const hasPlace = (s: Statement) =>
  [s.spec, s.rules, s.checks, s.clientRules, s.mock].some((list) => list.length > 0) ||
  [s.reason, s.gap, s.clientReason, s.note].some((text) => text !== undefined);

/**
 * What is wrong with the table itself, whatever the document says: a statement that lives nowhere,
 * names a check, rule, client rule or spec element that does not exist, or a server rule with neither
 * a check nor a reason.
 */
export function tableProblems(
  statements: readonly Statement[],
  spec: OpenApiDocument = serviceSpec,
): string[] {
  const clientRules = declaredClientRules(spec);
  return [
    ...statements
      .filter((s) => !hasPlace(s))
      .map((s) => `statement ${s.id} lives nowhere: no spec, check, test or reason`),
    ...statements.flatMap((s) => referenceProblems(s, spec, clientRules)),
    ...unplacedClientRules(statements, clientRules),
  ];
}

const line = (s: Statement, why: string): AccountLine => ({
  id: s.id,
  section: s.section,
  kind: s.kind,
  text: s.text,
  why,
});

/** Each statement that names a check, its parts separated (issue 31 item 7). */
function proofsOf(
  statements: readonly Statement[],
  cases: readonly SelfProofCase[],
): StatementProof[] {
  return statements.flatMap((s) => {
    const parts = statementParts(s, cases);
    const only = (status: PartStatus) => parts.filter((p) => p.status === status);
    const klass = proofClass(parts);
    if (klass === undefined) return [];
    return [
      {
        id: s.id,
        section: s.section,
        kind: s.kind,
        class: klass,
        judged: only('judged'),
        assumptionOnly: only('assumption'),
        reasons: only('reason'),
        gaps: only('gap'),
      },
    ];
  });
}

function proofCounts(proofs: readonly StatementProof[], cases: number): StatementAccount['proof'] {
  const count = (klass: ProofClass) => proofs.filter((p) => p.class === klass).length;
  const parts = (key: 'judged' | 'assumptionOnly' | 'reasons' | 'gaps') =>
    proofs.reduce((sum, p) => sum + p[key].length, 0);
  return {
    cases,
    named: proofs.length,
    judged: count('judged'),
    judgedInPart: count('judged-in-part'),
    assumptionOnly: count('assumption-only'),
    reasons: count('reasons'),
    unproven: count('unproven'),
    parts: {
      judged: parts('judged'),
      assumption: parts('assumptionOnly'),
      reason: parts('reasons'),
      gap: parts('gaps'),
    },
  };
}

const partText = (p: StatementPart) => `${p.part}: ${p.why ?? ''}`;

/** A statement's gaps, the table's own and its parts', as one line of why. */
function gapWhy(s: Statement, proof: StatementProof | undefined): string | undefined {
  const whys = [...(s.gap === undefined ? [] : [s.gap]), ...(proof?.gaps ?? []).map(partText)];
  return whys.length === 0 ? undefined : whys.join('; ');
}

/**
 * Statements with a deployment's side (checks) and a client's side (client rules) judged on one only:
 * no part proven, or no client rule judging it.
 */
function oneSidedOf(
  statements: readonly Statement[],
  proofs: ReadonlyMap<string, StatementProof>,
  clientRules: ClientRules | undefined,
): AccountLine[] {
  return statements.flatMap((s) => {
    if (s.checks.length === 0 || s.clientRules.length === 0) return [];
    const proof = proofs.get(s.id);
    if (proof?.class === 'reasons') return []; // no deployment can break its contract side
    const deployment = proof !== undefined && proof.judged.length + proof.assumptionOnly.length > 0;
    const client = judgingRules(s, clientRules).length > 0;
    if (deployment === client) return [];
    return [
      line(
        s,
        deployment
          ? `judged on a deployment (${s.checks.join(', ')}), not on a client's traffic: ` +
              (clientWhy(s, clientRules) ?? 'no client rule judges it')
          : `judged on a client's traffic (${judgingRules(s, clientRules).join(', ')}), ` +
              'not on a deployment: no part of it is proven by the self-proof',
      ),
    ];
  });
}

/** The document's units no statement holds, and statements the document does not hold. */
function lostUnits(trace: ReturnType<typeof traceStatements>, statements: number): number {
  const claimed = [...trace.found.values()].reduce((sum, units) => sum + units.length, 0);
  return trace.units.length - claimed + (statements - trace.found.size);
}

const byKindOf = (statements: readonly Statement[]) =>
  Object.fromEntries(
    STATEMENT_KINDS.map((kind) => [kind, statements.filter((s) => s.kind === kind).length]),
  ) as Record<StatementKind, number>;

const clientCounts = (
  client: readonly Statement[],
  open: readonly Statement[],
  reasons: readonly Statement[],
  unjudged: number,
): StatementAccount['client'] => ({
  total: client.length,
  judged: client.length - open.length,
  reasons: reasons.length,
  unjudged,
});

/** Cases that say they break a statement the table does not have. */
function unknownStatements(
  cases: readonly SelfProofCase[],
  statements: readonly Statement[],
): string[] {
  const ids = new Set(statements.map((s) => s.id));
  return cases.flatMap((c) =>
    c.statements
      .filter((id) => !ids.has(id))
      .map((id) => `${c.name} says it breaks the statement ${id}, which the table lacks`),
  );
}

export function statementAccount(input: AccountInput): StatementAccount {
  const { statements } = input;
  const spec = input.spec ?? serviceSpec;
  const clientRules = declaredClientRules(spec);
  const trace = traceStatements(input.document, statements, {
    documentName: input.documentName ?? 'spec/service-document.md',
  });
  const proofs = proofsOf(statements, input.cases ?? []);
  const proofById = new Map(proofs.map((p) => [p.id, p]));
  const proven = (s: Statement) => proofById.get(s.id)?.class === 'judged';
  const server = statements.filter((s) => s.kind === 'server');
  const placeless = statements.filter((s) => !hasPlace(s));
  const serverUnjudged = server.filter((s) => s.checks.length === 0 && s.reason === undefined);
  const judgedByClientRule = (s: Statement) => judgingRules(s, clientRules).length > 0;
  const client = statements.filter((s) => CLIENT_KINDS.has(s.kind));
  const clientOpen = client.filter((s) => !judgedByClientRule(s));
  const clientReasons = clientOpen.filter((s) => clientWhy(s, clientRules) !== undefined);
  const clientUnjudged = clientRules === undefined ? 0 : clientOpen.length - clientReasons.length;
  const withGaps = statements.filter((s) => gapWhy(s, proofById.get(s.id)) !== undefined);
  return {
    statements: statements.length,
    byKind: byKindOf(statements),
    judged: statements.filter(proven).length,
    clientRules: statements.filter(judgedByClientRule).length,
    mock: statements.filter((s) => s.mock.length > 0).length,
    reasons: server.filter((s) => s.checks.length === 0 && s.reason !== undefined).length,
    gaps: withGaps.length,
    unmapped:
      lostUnits(trace, statements.length) +
      placeless.length +
      serverUnjudged.filter((s) => s.gap === undefined).length +
      clientUnjudged,
    server: {
      total: server.length,
      judged: server.filter(proven).length,
      reasons: server.filter((s) => s.checks.length === 0 && s.reason !== undefined).length,
      unjudged: serverUnjudged.length,
    },
    client: clientCounts(client, clientOpen, clientReasons, clientUnjudged),
    clientRulesDeclared: clientRules !== undefined,
    notJudged: statements
      .filter((s) => s.checks.length === 0 && !judgedByClientRule(s))
      .map((s) => line(s, whyNotJudged(s, clientRules))),
    clientNotJudged: clientOpen.map((s) =>
      line(s, clientWhy(s, clientRules) ?? unexplained(clientRules)),
    ),
    gapList: withGaps.map((s) => line(s, gapWhy(s, proofById.get(s.id))!)),
    notPlayed: statements
      .filter((s) => s.mock.length === 0)
      .map((s) => line(s, s.note ?? KIND_LABEL[s.kind])),
    problems: [
      ...trace.problems.map((p) => p.message),
      ...tableProblems(statements, spec),
      ...unknownStatements(input.cases ?? [], statements),
    ],
    proof: proofCounts(proofs, input.cases?.length ?? 0),
    proofByStatement: proofs,
    oneSided: oneSidedOf(statements, proofById, clientRules),
  };
}

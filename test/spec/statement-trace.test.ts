import { describe, expect, it } from 'vitest';
import { declaredClientRules, statementAccount } from '../../contracts/statement-account.ts';
import type { SelfProofCase } from '../../contracts/statement-proof.ts';
import { documentUnits, sentencesOf } from '../../src/spec/document-units.ts';
import { CLIENT_RULES, serviceSpec, type OpenApiDocument } from '../../src/spec/index.ts';
import { similarity, traceStatements } from '../../src/spec/statement-trace.ts';
import type { Statement } from '../../src/spec/statements.ts';

// How the service document is split into statements and matched against the table (decisions/020).
const DOCUMENT = `# A service

Covers it all. And more.

## 1. What it does

- Submission returns at once. The client stores the ID.
- Base address: \`{base_url}\`.

### 2.1 Request

| Field | Type | Meaning |
|---|---|---|
| model | string | The model. Must not be empty |

Known keys:
1. A task is polled again.
   It is never resubmitted.
`;

const statement = (
  s: Partial<Statement> & Pick<Statement, 'id' | 'section' | 'text'>,
): Statement => ({
  kind: 'server',
  spec: [],
  rules: [],
  checks: [],
  clientRules: [],
  mock: [],
  note: 'a note',
  ...s,
});

const TABLE: readonly Statement[] = [
  statement({
    id: 'intro-scope',
    section: 'intro',
    kind: 'information',
    text: 'Covers it all. And more.',
  }),
  statement({
    id: '1-at-once',
    section: '§1',
    text: 'Submission returns at once.',
    rules: ['submission-answers-at-once'],
    checks: ['submission.at-once'],
  }),
  statement({
    id: '1-keeps-id',
    section: '§1',
    kind: 'client',
    text: 'The client stores the ID.',
    clientRules: ['keeps-records'],
  }),
  statement({
    id: '1-base',
    section: '§1',
    kind: 'information',
    text: 'Base address: `{base_url}`.',
  }),
  statement({
    id: '2.1-model',
    section: '§2.1',
    text: 'model | string | The model. Must not be empty',
    rules: ['empty-prompt-invalid'],
    checks: ['input.empty-prompt'],
  }),
  statement({ id: '2.1-keys', section: '§2.1', kind: 'information', text: 'Known keys:' }),
  statement({
    id: '2.1-rule',
    section: '§2.1',
    kind: 'client',
    text: 'A task is polled again. It is never resubmitted.',
    rules: ['no-resubmission'],
    checks: ['client.no-resubmission'],
    clientRules: ['resubmits'],
  }),
];

const clientRule = (id: string, section: string, extra: object = {}) => ({
  id,
  'x-source': section,
  breach: 'what the mock counts',
  advice: 'what to do',
  ...extra,
});
/** The service spec with the fixture's client rules: one the mock judges, one traffic cannot show. */
const SPEC = {
  ...serviceSpec,
  'x-client-rules': {
    rules: [
      clientRule('resubmits', '§2.1'),
      clientRule('keeps-records', '§1', { judged: false, why: 'Records stay in the client.' }),
    ],
  },
} as OpenApiDocument;

describe('documentUnits', () => {
  it('gives each table row and each sentence of a paragraph or list item, with its section and line', () => {
    expect(documentUnits(DOCUMENT).map((u) => [u.section, u.line, u.text])).toEqual([
      ['intro', 3, 'Covers it all.'],
      ['intro', 3, 'And more.'],
      ['§1', 7, 'Submission returns at once.'],
      ['§1', 7, 'The client stores the ID.'],
      ['§1', 8, 'Base address: `{base_url}`.'],
      ['§2.1', 14, 'model | string | The model. Must not be empty'],
      ['§2.1', 16, 'Known keys:'],
      ['§2.1', 17, 'A task is polled again.'],
      ['§2.1', 17, 'It is never resubmitted.'],
    ]);
  });

  it('reads a fenced code block as one unit, never as table rows or sentences', () => {
    const units = documentUnits(
      '## 4. Examples\n\n```json\n{ "a": 1 }\n| not | a row |\n```\nAfter it.\n',
    );
    expect(units.map((u) => [u.section, u.line, u.text])).toEqual([
      ['§4', 3, '{ "a": 1 } | not | a row |'],
      ['§4', 7, 'After it.'],
    ]);
  });

  it('splits sentences after a full stop before a capital, a digit or a backtick, not inside numbers', () => {
    expect(sentencesOf('Enabled at version 1.0.5. A plugin has type 61.')).toEqual([
      'Enabled at version 1.0.5.',
      'A plugin has type 61.',
    ]);
    expect(sentencesOf('JSON per section 2.1. `Content-Type: application/json`.')).toEqual([
      'JSON per section 2.1.',
      '`Content-Type: application/json`.',
    ]);
    expect(sentencesOf('A factor of 1.5 (e.g. slow) applies.')).toEqual([
      'A factor of 1.5 (e.g. slow) applies.',
    ]);
  });
});

describe('traceStatements', () => {
  it('finds every statement of a table that matches the document, and reports nothing', () => {
    const trace = traceStatements(DOCUMENT, TABLE);
    expect(trace.problems).toEqual([]);
    expect(trace.found.get('2.1-rule')!.map((u) => u.text)).toEqual([
      'A task is polled again.',
      'It is never resubmitted.',
    ]);
  });

  it('names a changed statement with its old and new words and everything mapped to it', () => {
    const changed = DOCUMENT.replace(
      'It is never resubmitted.',
      'It is resubmitted after an hour.',
    );
    const [problem, ...rest] = traceStatements(changed, TABLE, { documentName: 'v2.md' }).problems;
    expect(rest).toEqual([]);
    expect(problem).toMatchObject({
      kind: 'changed',
      statement: '2.1-rule',
      section: '§2.1',
      line: 17,
    });
    expect(problem!.message).toContain('statement 2.1-rule changed (v2.md line 17)');
    expect(problem!.message).toContain('was: A task is polled again. It is never resubmitted.');
    expect(problem!.message).toContain(
      'now: A task is polled again. It is resubmitted after an hour.',
    );
    expect(problem!.message).toContain('contract checks client.no-resubmission');
  });

  it('names a new statement, a removed one and a moved one, in the order of the document', () => {
    const next = DOCUMENT.replace('- Base address: `{base_url}`.\n', '')
      .replace('Known keys:', 'Known keys:\n\nA new rule: every request is logged.')
      .replace('- Submission returns at once.', '- Submission is slow.')
      .replace('## 1. What it does', '## 1. What it does\n\nCovers it all. And more.')
      .replace('\nCovers it all. And more.\n\n## 1', '\n## 1');
    const problems = traceStatements(next, TABLE).problems;
    expect(problems.map((p) => [p.kind, p.statement ?? p.text])).toEqual([
      ['moved', 'intro-scope'],
      ['new', 'Submission is slow.'],
      ['new', 'A new rule: every request is logged.'],
      ['removed', '1-at-once'],
      ['removed', '1-base'],
    ]);
    expect(problems[0]!.message).toContain('moved from intro to §1');
    expect(problems[4]!.message).toContain('is no longer in the document');
  });

  it('refuses two statements holding the same words', () => {
    const twice = [...TABLE, { ...TABLE[1]!, id: '1-again' }];
    expect(traceStatements(DOCUMENT, twice).problems).toMatchObject([
      { kind: 'overlap', statement: '1-again' },
    ]);
  });

  it('rates word sets: 1 for the same words, 0 for none in common', () => {
    expect(similarity('A b c', 'c b a')).toBe(1);
    expect(similarity('one two', 'three four')).toBe(0);
    expect(similarity('Transitions: not shown.', 'Transitions: shown below.')).toBeCloseTo(2 / 3);
  });
});

/** Self-proof cases: mutants of one rule, a defect breaking another (an assumption). */
const CASES: readonly SelfProofCase[] = [
  {
    name: 'mutants of empty-prompt-invalid',
    breaks: ['empty-prompt-invalid'],
    checks: [],
    statements: [],
  },
  { name: 'defect slow', breaks: ['submission-answers-at-once'], checks: [], statements: [] },
];

describe('statementAccount', () => {
  const account = (
    statements: readonly Statement[],
    spec: OpenApiDocument = SPEC,
    cases: readonly SelfProofCase[] = CASES,
  ) => statementAccount({ document: DOCUMENT, statements, spec, cases });
  const edit = (id: string, change: (s: Statement) => Statement) =>
    TABLE.map((s) => (s.id === id ? change(s) : s));

  it('counts the statements by kind, judged, played and unmapped', () => {
    const a = account(TABLE);
    expect(a).toMatchObject({ statements: 7, judged: 1, clientRules: 1, reasons: 0, unmapped: 0 });
    expect(a.byKind).toMatchObject({ server: 2, client: 2, information: 3 });
    expect(a.client).toEqual({ total: 2, judged: 1, reasons: 1, unjudged: 0 });
    expect(a.problems).toEqual([]);
  });

  it('counts a statement judged only where a case that breaks it is caught by its own check (issue 31)', () => {
    const a = account(TABLE);
    expect(a.proof).toMatchObject({
      cases: 2,
      named: 3,
      judged: 1,
      assumptionOnly: 1,
      unproven: 1,
      parts: { judged: 1, assumption: 1, reason: 0, gap: 1 },
    });
    expect(a.proofByStatement.map((p) => [p.id, p.class])).toEqual([
      ['1-at-once', 'assumption-only'],
      ['2.1-model', 'judged'],
      ['2.1-rule', 'unproven'],
    ]);
    expect(a.proofByStatement[1]!.judged).toEqual([
      {
        part: 'rule empty-prompt-invalid',
        checks: ['input.empty-prompt'],
        status: 'judged',
        cases: ['mutants of empty-prompt-invalid'],
      },
    ]);
    expect(a.gapList.map((g) => [g.id, g.why])).toEqual([
      [
        '2.1-rule',
        'rule no-resubmission: no self-proof case that breaks this statement is caught by client.no-resubmission',
      ],
    ]);
    expect(account(TABLE, SPEC, []).proof).toMatchObject({ judged: 0, unproven: 3 });
  });

  it('splits a statement naming two rules: each part judged, given a reason, or a gap', () => {
    const two = edit('2.1-model', (s) => ({
      ...s,
      rules: ['empty-prompt-invalid', 'required-fields'],
      checks: ['input.empty-prompt', 'input.required-fields'],
    }));
    const proof = (t: readonly Statement[]) =>
      account(t).proofByStatement.find((p) => p.id === '2.1-model')!;
    expect(proof(two)).toMatchObject({
      class: 'judged-in-part',
      judged: [{ part: 'rule empty-prompt-invalid' }],
      gaps: [{ part: 'rule required-fields', checks: ['input.required-fields'] }],
    });
    const reasoned = two.map((s) =>
      s.id === '2.1-model' ? { ...s, partReasons: { 'required-fields': 'why not' } } : s,
    );
    expect(proof(reasoned)).toMatchObject({
      class: 'judged',
      reasons: [{ part: 'rule required-fields', why: 'why not' }],
    });
  });

  it('proves a shape check only by a case that breaks that statement', () => {
    const shape = edit('2.1-model', (s) => ({ ...s, checks: [...s.checks, 'task.shape'] }));
    const elsewhere: SelfProofCase = {
      name: 'defect wrong-field',
      breaks: ['object-is-video'],
      checks: ['task.shape'],
      statements: [],
    };
    const gaps = (cases: readonly SelfProofCase[]) =>
      account(shape, SPEC, cases).proofByStatement.find((p) => p.id === '2.1-model')!.gaps;
    expect(gaps([...CASES, elsewhere])).toMatchObject([{ part: 'check task.shape' }]);
    expect(gaps([...CASES, { ...elsewhere, statements: ['2.1-model'] }])).toEqual([]);
  });

  it('names a check whose rule the statement does not name, and a case naming no statement', () => {
    const foreign = edit('2.1-model', (s) => ({ ...s, checks: [...s.checks, 'owner.content'] }));
    expect(account(foreign).problems).toEqual([
      'statement 2.1-model names the check owner.content, which judges the rule owner-only it does ' +
        'not name: add the rule if the statement states it, or drop the check',
    ]);
    const stray = { ...CASES[0]!, statements: ['9-nowhere'] };
    expect(account(TABLE, SPEC, [stray]).problems).toEqual([
      'mutants of empty-prompt-invalid says it breaks the statement 9-nowhere, which the table lacks',
    ]);
  });

  it('gives the why x-client-rules gives for a rule traffic cannot judge', () => {
    expect(account(TABLE).clientNotJudged).toMatchObject([
      {
        id: '1-keeps-id',
        why: 'not judged from traffic (x-client-rules keeps-records: Records stay in the client.)',
      },
    ]);
  });

  it('names a check, a rule, a pointer and a client rule that do not exist', () => {
    const wrong = edit('1-at-once', (s) => ({
      ...s,
      checks: ['task.shapes'],
      rules: ['no-such-rule'],
      spec: ['/paths/~1v2'],
      clientRules: ['x'],
    }));
    expect(account(wrong).problems).toEqual([
      'statement 1-at-once names the check task.shapes, which contracts/checks/definitions.ts lacks',
      'statement 1-at-once names the rule no-such-rule, which x-lifecycle.rules lacks',
      'statement 1-at-once points at /paths/~1v2, which spec/openapi.yaml lacks',
      'statement 1-at-once names the client rule x, which x-client-rules lacks',
    ]);
    const none = { ...SPEC, 'x-client-rules': undefined } as OpenApiDocument;
    expect(account(wrong, none).problems).toContain(
      'statement 1-at-once names the client rule x, but the spec declares no x-client-rules',
    );
  });

  it('counts a server rule with neither a check nor a reason as unmapped, and one that lives nowhere', () => {
    const { note: _note, ...noNote } = TABLE[1]!;
    const bare = edit('1-at-once', () => ({ ...noNote, rules: [], checks: [] }));
    expect(account(bare)).toMatchObject({ unmapped: 2 });
    expect(account(bare).problems).toEqual([
      'statement 1-at-once lives nowhere: no spec, check, test or reason',
      'statement 1-at-once is a server rule with neither a check nor a reason (nor a gap saying what is missing)',
    ]);
    const reasoned = bare.map((s) =>
      s.id === '1-at-once' ? { ...s, reason: 'not observable' } : s,
    );
    expect(account(reasoned)).toMatchObject({ unmapped: 0, reasons: 1, problems: [] });
  });

  it('counts a client rule with neither a client rule nor a clientReason as unmapped', () => {
    const bare = edit('2.1-rule', (s) => ({ ...s, clientRules: [] }));
    expect(account(bare)).toMatchObject({
      unmapped: 1,
      clientRules: 0,
      client: { total: 2, judged: 0, reasons: 1, unjudged: 1 },
    });
    expect(account(bare).problems).toEqual([
      'statement 2.1-rule is a client rule with neither a client rule nor a clientReason',
      'x-client-rules resubmits cites §2.1, but no statement of §2.1 names it: add it to the ' +
        'clientRules of the statement it judges',
    ]);
    const reasoned = edit('1-keeps-id', (s) => ({
      ...s,
      clientRules: [],
      clientReason: 'kept in the client',
    }));
    expect(account(reasoned).clientNotJudged).toMatchObject([
      { id: '1-keeps-id', why: 'kept in the client' },
    ]);
    expect(account(reasoned).problems).toEqual([
      'x-client-rules keeps-records cites §1, but no statement of §1 names it: add it to the ' +
        'clientRules of the statement it judges',
    ]);
  });

  it('takes a clientReason only where no client rule is named, on a client rule or recommendation', () => {
    const both = edit('2.1-rule', (s) => ({ ...s, clientReason: 'cannot be seen' }));
    expect(account(both).problems).toEqual([
      'statement 2.1-rule: a clientReason is for a statement that names no client rule (a rule it ' +
        'names judges it, or says in x-client-rules why traffic cannot); use note',
    ]);
    const server = edit('1-at-once', (s) => ({ ...s, clientReason: 'cannot be seen' }));
    expect(account(server).problems).toEqual([
      'statement 1-at-once: a clientReason is for a client rule or a recommendation; use note',
    ]);
  });

  it("names a client rule whose basis is not the statement's kind: advice judges a recommendation", () => {
    const recommendation = edit('2.1-rule', (s) => ({ ...s, kind: 'recommendation' }));
    expect(account(recommendation).problems).toEqual([
      'statement 2.1-rule is a recommendation, but x-client-rules resubmits is judged as a ' +
        'violation: make the two agree',
    ]);
    const advice = {
      ...SPEC,
      'x-client-rules': {
        rules: [
          clientRule('resubmits', '§2.1', { 'x-recommendation': true }),
          clientRule('keeps-records', '§1', { judged: false, why: 'Records stay in the client.' }),
        ],
      },
    } as OpenApiDocument;
    expect(account(recommendation, advice).problems).toEqual([]);
    expect(account(TABLE, advice).problems).toEqual([
      'statement 2.1-rule is a client rule, but x-client-rules resubmits is a recommendation ' +
        '(advice): make the two agree',
    ]);
  });

  it('reads x-client-rules as the mock reads it: every rule, judged or not, with its why', () => {
    const rules = declaredClientRules(serviceSpec)!;
    expect([...rules.keys()]).toEqual(CLIENT_RULES.map((r) => r.id));
    expect(rules.get('no-resubmission')).toMatchObject({ judged: true, outcome: 'violation' });
    expect(rules.get('poll-interval')).toMatchObject({ judged: true, outcome: 'advice' });
    expect(rules.get('total-timeout')).toMatchObject({ judged: false, section: '§8' });
    expect(() =>
      declaredClientRules({ ...serviceSpec, 'x-client-rules': { rules: [{ id: 'x' }] } }),
    ).toThrow(/x-client-rules "x" needs x-source/);
  });
});

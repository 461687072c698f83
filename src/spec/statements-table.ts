/**
 * The statements of the service document and where each lives: the entries of `spec/statements.yaml`
 * and how they are checked one by one (decisions/020-statement-traceability.md).
 */
export const STATEMENT_KINDS = [
  'server',
  'client',
  'recommendation',
  'admin',
  'information',
  'not-shown',
] as const;
export type StatementKind = (typeof STATEMENT_KINDS)[number];

/** How each kind reads in an account or a page. */
export const KIND_LABEL: Readonly<Record<StatementKind, string>> = {
  server: 'server rule',
  client: 'client rule',
  recommendation: 'recommendation',
  admin: 'administrator step',
  information: 'information',
  'not-shown': 'not shown',
};

/** How many of a kind read: "63 server rules", "35 information", "16 not shown". */
export function kindCount(n: number, kind: StatementKind): string {
  const label = KIND_LABEL[kind];
  const countable = kind !== 'information' && kind !== 'not-shown' && n !== 1;
  return `${n} ${label}${countable ? 's' : ''}`;
}

/** A test by its file and its full title as vitest reports it (`describe > it`, placeholders kept). */
export interface TestRef {
  readonly file: string;
  readonly test: string;
}

export interface Statement {
  readonly id: string;
  /** `§2.1`, `§7`, or `intro`. */
  readonly section: string;
  readonly kind: StatementKind;
  /** The document's words: one table row, or consecutive sentences of one paragraph or list item. */
  readonly text: string;
  /** JSON pointers into spec/openapi.yaml. */
  readonly spec: readonly string[];
  /** `x-lifecycle.rules` ids. */
  readonly rules: readonly string[];
  /** Contract check ids. */
  readonly checks: readonly string[];
  /**
   * `x-client-rules` ids that account for it on a client's traffic (issue 20): a judged rule judges
   * it; a `judged: false` rule says, in its `why`, why traffic cannot.
   */
  readonly clientRules: readonly string[];
  readonly mock: readonly TestRef[];
  /** Why no contract check can judge this server rule. */
  readonly reason?: string | undefined;
  /** What of it no check judges yet, although one could. */
  readonly gap?: string | undefined;
  /** Why no client rule can judge this client rule or recommendation, where x-client-rules has none. */
  readonly clientReason?: string | undefined;
  readonly note?: string | undefined;
  /**
   * Why no self-proof case can break a part of it (a rule or a shape check it names, by id): the part is
   * then given a reason, not counted judged nor a gap (issue 31 item 7).
   */
  readonly partReasons?: Readonly<Record<string, string>> | undefined;
}

const LISTS = ['spec', 'rules', 'checks', 'clientRules'] as const;
const TEXTS = ['reason', 'gap', 'clientReason', 'note'] as const;
const KNOWN = new Set(['id', 'section', 'kind', 'text', 'mock', 'partReasons', ...LISTS, ...TEXTS]);
const ID = /^(intro|\d+(\.\d+)*)-[a-z0-9]+(-[a-z0-9.]+)*$/;

const isText = (value: unknown): value is string =>
  typeof value === 'string' && value.trim() !== '';

function stringList(value: unknown, where: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every(isText))
    throw new Error(`${where} must be a list of non-empty strings`);
  return value;
}

function testRefs(value: unknown, where: string): TestRef[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new Error(`${where} must be a list of {file, test}`);
  return value.map((ref: unknown, index) => {
    const { file, test } = (ref ?? {}) as Record<string, unknown>;
    if (!isText(file) || !isText(test) || Object.keys(ref as object).length !== 2)
      throw new Error(`${where}[${index}] must be {file, test}, both non-empty strings`);
    return { file, test };
  });
}

function partReasons(value: unknown, where: string): { partReasons?: Record<string, string> } {
  if (value === undefined) return {};
  const entries = typeof value === 'object' && value !== null ? Object.entries(value) : [];
  if (Array.isArray(value) || entries.length === 0 || !entries.every(([, why]) => isText(why)))
    throw new Error(`${where} must map a rule or check id to why no case can break it`);
  return { partReasons: Object.fromEntries(entries) };
}

function readStatement(raw: unknown, index: number): Statement {
  const entry = (raw ?? {}) as Record<string, unknown>;
  const where = `statements[${index}]${isText(entry['id']) ? ` (${entry['id']})` : ''}`;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new Error(`${where} must be an object`);
  const unknown = Object.keys(entry).filter((key) => !KNOWN.has(key));
  if (unknown.length > 0) throw new Error(`${where} has unknown fields: ${unknown.join(', ')}`);
  const { id, section, kind, text } = entry;
  if (!isText(id) || !ID.test(id))
    throw new Error(`${where}.id must look like "2.2-task-id" (the section, then a slug)`);
  if (!isText(section) || !/^(intro|§\d+(\.\d+)*)$/.test(section))
    throw new Error(`${where}.section must be "intro" or "§N" / "§N.M"`);
  if (!id.startsWith(`${section.replace('§', '')}-`))
    throw new Error(`${where}.id must start with its section (${section.replace('§', '')}-)`);
  if (!STATEMENT_KINDS.includes(kind as StatementKind))
    throw new Error(`${where}.kind must be one of ${STATEMENT_KINDS.join(', ')}`);
  if (!isText(text)) throw new Error(`${where}.text must be the document's words`);
  const optional = Object.fromEntries(
    TEXTS.flatMap((key) => {
      const value = entry[key];
      if (value === undefined) return [];
      if (!isText(value)) throw new Error(`${where}.${key} must be a non-empty string`);
      return [[key, value]];
    }),
  );
  return {
    id,
    section,
    kind: kind as StatementKind,
    text,
    ...(Object.fromEntries(
      LISTS.map((key) => [key, stringList(entry[key], `${where}.${key}`)]),
    ) as Record<(typeof LISTS)[number], string[]>),
    mock: testRefs(entry['mock'], `${where}.mock`),
    ...optional,
    ...partReasons(entry['partReasons'], `${where}.partReasons`),
  };
}

/**
 * The statements of a parsed `spec/statements.yaml` (`{statements: [...]}`), checked field by field.
 * Throws naming the first entry and field that is wrong, or a repeated id.
 */
export function readStatements(document: unknown): Statement[] {
  const list = (document as { statements?: unknown } | null)?.statements;
  if (!Array.isArray(list)) throw new Error('the table must be {statements: [...]}');
  const statements = list.map(readStatement);
  const seen = new Set<string>();
  for (const { id } of statements) {
    if (seen.has(id)) throw new Error(`statement ${id} is listed twice`);
    seen.add(id);
  }
  return statements;
}

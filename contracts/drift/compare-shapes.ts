import { kindLabel, mergeFamilyOf, parseForm, type ShapeNode } from '../../src/profile/index.ts';

/** One place where two shapes differ: a body path (`data.status`) and what each side has there. */
export interface ShapeDifference {
  readonly path: string;
  readonly a: string;
  readonly b: string;
}

/**
 * What two deployments' answers differ in, by shape and value kind, never by data: a field one side
 * always sends and the other never does, a constant that reads otherwise (`"QUEUED"` / `"SUBMITTED"`),
 * another kind of value (a number / a percent text), an ID of another form, a message that names the
 * request ID on one side only. What sampling alone can explain is no difference: a field sent
 * sometimes, one word against several, ranges of numbers, the wording of free text.
 */
export function compareShapes(
  a: ShapeNode,
  b: ShapeNode,
  context: ShapeContext = UNSAMPLED,
  path = '',
): ShapeDifference[] {
  const left = families(a);
  const right = families(b);
  const common = [...left.keys()].filter((f) => right.has(f));
  if (common.length === 0) return [{ path: path || '(body)', a: kindLabel(a), b: kindLabel(b) }];
  return common.flatMap((family) =>
    compareSame(left.get(family)!, right.get(family)!, context, path),
  );
}

/**
 * The words each side used at a path in any answer of the same route: a constant the other side also
 * used there (a second-family task's `"61"` seen in another state) is sampling, not a difference.
 */
export interface ShapeContext {
  readonly wordsA: (path: string) => ReadonlySet<string>;
  readonly wordsB: (path: string) => ReadonlySet<string>;
}

const NOTHING: ReadonlySet<string> = new Set();
const UNSAMPLED: ShapeContext = { wordsA: () => NOTHING, wordsB: () => NOTHING };

/** Every word a node holds, by path (`data.platform`, `errors[].code`): what `ShapeContext` reads. */
export function wordsByPath(node: ShapeNode, into: Map<string, Set<string>>, path = ''): void {
  if ('object' in node)
    for (const [key, child] of Object.entries(node.object))
      wordsByPath(child, into, path === '' ? key : `${path}.${key}`);
  else if ('array' in node) {
    if (node.array !== null) wordsByPath(node.array, into, `${path}[]`);
  } else if ('oneOf' in node) for (const member of node.oneOf) wordsByPath(member, into, path);
  else {
    const words = 'const' in node ? [node.const] : (node.values ?? []);
    const set = into.get(path) ?? new Set<string>();
    for (const word of words) if (typeof word === 'string') set.add(word);
    into.set(path, set);
  }
}

/** A node's members by family (what `oneOf` holds, or the node itself). */
function families(node: ShapeNode): Map<string, ShapeNode> {
  const members = 'oneOf' in node ? node.oneOf : [node];
  return new Map(members.map((m) => [comparedFamilyOf(m), m]));
}

/**
 * The family drift compares a node within: the learning's (`mergeFamilyOf`), but words, texts and the
 * state's words are all text a client reads: only two constants compare by value (the wrapper's words
 * per state are the lifecycle's to compare).
 */
function comparedFamilyOf(node: ShapeNode): string {
  const family = mergeFamilyOf(node);
  return TEXT_FAMILIES.has(family) ? 'text' : family;
}
const TEXT_FAMILIES = new Set(['word', 'text', 'status', 'wrapper-status']);

function compareSame(
  a: ShapeNode,
  b: ShapeNode,
  context: ShapeContext,
  path: string,
): ShapeDifference[] {
  if ('object' in a && 'object' in b) return compareObjects(a, b, context, path);
  if ('array' in a && 'array' in b) {
    if (a.array === null || b.array === null) return [];
    return compareShapes(a.array, b.array, context, `${path}[]`);
  }
  const at = path || '(body)';
  if ('const' in a && 'const' in b) return compareConsts(a, b, context, path);
  if ('kind' in a && 'kind' in b) return compareKinds(a, b, at);
  return [];
}

/** Two constant words differ unless the other side was seen to use that word too. */
function compareConsts(
  a: Extract<ShapeNode, { const: unknown }>,
  b: Extract<ShapeNode, { const: unknown }>,
  context: ShapeContext,
  path: string,
): ShapeDifference[] {
  if (a.const === b.const || typeof a.const !== 'string' || typeof b.const !== 'string') return [];
  const sampled = context.wordsB(path).has(a.const) || context.wordsA(path).has(b.const);
  return sampled ? [] : [{ path: path || '(body)', a: kindLabel(a), b: kindLabel(b) }];
}

/** Two values of one kind differ in an ID's form, or in whether a text names the request ID. */
function compareKinds(
  a: Extract<ShapeNode, { kind: unknown }>,
  b: Extract<ShapeNode, { kind: unknown }>,
  at: string,
): ShapeDifference[] {
  if (a.kind === 'id' && b.kind === 'id' && !sameForm(a.form, b.form))
    return [{ path: at, a: kindLabel(a), b: kindLabel(b) }];
  if (
    a.kind === 'text' &&
    b.kind === 'text' &&
    namesRequestId(a.template) !== namesRequestId(b.template)
  )
    return [{ path: at, a: describeText(a.template), b: describeText(b.template) }];
  return [];
}

function compareObjects(
  a: Extract<ShapeNode, { object: unknown }>,
  b: Extract<ShapeNode, { object: unknown }>,
  context: ShapeContext,
  path: string,
): ShapeDifference[] {
  const differences: ShapeDifference[] = [];
  // An empty object is one not filled yet (the gateway's raw upstream body before its first poll).
  if (Object.keys(a.object).length === 0 || Object.keys(b.object).length === 0) return differences;
  const optional = new Set([...(a.optional ?? []), ...(b.optional ?? [])]);
  for (const key of new Set([...Object.keys(a.object), ...Object.keys(b.object)])) {
    const at = path === '' ? key : `${path}.${key}`;
    const left = a.object[key];
    const right = b.object[key];
    if (left !== undefined && right !== undefined)
      differences.push(...compareShapes(left, right, context, at));
    else if (!optional.has(key))
      differences.push({
        path: at,
        a: left === undefined ? 'absent' : kindLabel(left),
        b: right === undefined ? 'absent' : kindLabel(right),
      });
  }
  return differences;
}

/** Two ID forms are the same form when their literal parts and slot lengths agree. */
function sameForm(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  const outline = (form: string) =>
    parseForm(form)
      .map((p) => ('literal' in p ? p.literal : `{${p.min}-${p.max}}`))
      .join('');
  return outline(a) === outline(b);
}

const namesRequestId = (template: string | undefined) =>
  template?.includes('{request-id}') === true;
const describeText = (template: string | undefined) =>
  namesRequestId(template) ? 'text naming the request ID' : 'text';

import { MAX_JSON_DEPTH } from '../text/json-depth.ts';
import { formOf, isIdLike, mergeForms } from './id-form.ts';
import { ElidedText, listLength, MAX_OBJECT_FIELDS } from './shape-bounds.ts';
import type { LeafKind, LeafNode, ShapeNode } from './profile-format.ts';

/**
 * A JSON value described as a shape: structure kept, every leaf replaced by its kind (or kept as a
 * constant when it is a short word, a flag or null), so that answers of one cell merge into one node
 * and two deployments compare by shape, never by their data.
 */

/** What a value may be bound to: facts of the exchange it came from. */
export interface ValueFacts {
  /** The public ID of the task the answer is about (and any other the run knows). */
  readonly taskIds: ReadonlySet<string>;
  /** Model IDs the run used or the catalog listed. */
  readonly models: ReadonlySet<string>;
  /** The answer's own service request ID (its request-ID header), if any. */
  readonly serviceRequestId?: string | undefined;
  /** Prompts the run sent: never kept, only named. */
  readonly prompts: readonly string[];
  /** The state of the task the answer is about, in the OpenAI form's and the wrapper's words. */
  readonly state?: { readonly status: string; readonly wrapper?: string | undefined } | undefined;
}

/** A list's shape is learned from its first items. */
const DESCRIBED_ITEMS = 50;
/** Words keep a few of their values (readable), never more. */
const MAX_WORDS = 8;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;
const PERCENT = /^\d{1,3}(\.\d+)?%$/;
const URL_TEXT = /^https?:\/\/\S+$/;
const WORD = /^\S{1,64}$/;
/** Plausible Unix times: 2001-09 to 2096 in seconds, the same in milliseconds. */
const isUnixSeconds = (n: number) => Number.isInteger(n) && n >= 1e9 && n < 4e9;
const isUnixMs = (n: number) => Number.isInteger(n) && n >= 1e12 && n < 4e12;

/**
 * The shape of one value: a parsed JSON answer, or what `pruneJson` kept of one (a list's full length,
 * a text known by its length).
 */
export function describe(value: unknown, facts: ValueFacts, depth = 0): ShapeNode {
  if (value === null || typeof value === 'boolean') return { const: value };
  if (typeof value === 'number') return describeNumber(value);
  if (typeof value === 'string') return describeString(value, facts);
  if (value instanceof ElidedText) return { kind: 'text', length: [value.length, value.length] };
  if (depth >= MAX_JSON_DEPTH) return { kind: 'text' };
  if (Array.isArray(value)) {
    let items: ShapeNode | null = null;
    for (const item of value.slice(0, DESCRIBED_ITEMS)) {
      const node = describe(item, facts, depth + 1);
      items = items === null ? node : mergeNodes(items, node);
    }
    const length = listLength(value);
    return { array: items, length: [length, length] };
  }
  if (typeof value === 'object') {
    const fields = Object.entries(value as Record<string, unknown>)
      .slice(0, MAX_OBJECT_FIELDS)
      .map(([key, item]): [string, ShapeNode] => [key, describe(item, facts, depth + 1)]);
    // Defined, not assigned: a `__proto__` field stays a field.
    return { object: Object.fromEntries(fields) };
  }
  return { kind: 'text' };
}

/** A number's range is kept within ±10^15 (the profile's bound): a larger one reads as that bound. */
const NUMBER_BOUND = 1e15;

function describeNumber(n: number): ShapeNode {
  if (isUnixSeconds(n)) return { kind: 'unix-seconds' };
  if (isUnixMs(n)) return { kind: 'unix-ms' };
  const kept = Math.max(-NUMBER_BOUND, Math.min(NUMBER_BOUND, n));
  return { kind: Number.isInteger(n) ? 'integer' : 'number', range: [kept, kept] };
}

/**
 * The longest wording a text is kept as (a template), in characters: past it a text is learned by its
 * length alone (issue 33 item 5: a 150 KB field took 50 s to template and was kept whole).
 */
export const MAX_TEMPLATE_CHARS = 2000;

function describeString(text: string, facts: ValueFacts): ShapeNode {
  if (text === '') return { kind: 'empty' };
  const fact = factNamed(text, facts);
  if (fact !== undefined) return fact;
  if (text.length > MAX_TEMPLATE_CHARS) return { kind: 'text', length: [text.length, text.length] };
  if (ISO_TIME.test(text)) return { kind: 'iso-time' };
  if (PERCENT.test(text)) return { kind: 'percent' };
  if (URL_TEXT.test(text)) return { kind: 'url' };
  if (isIdLike(text)) return { kind: 'id', form: formOf(text) };
  const template = templateOf(text, facts);
  // A short word naming no fact is the deployment's own constant.
  if (WORD.test(text) && template === escapeBraces(text)) return { const: text };
  return template.length > MAX_TEMPLATE_CHARS
    ? { kind: 'text', length: [text.length, text.length] }
    : { kind: 'text', template };
}

/**
 * A text's wording as a template when it fits `MAX_TEMPLATE_CHARS` (a failure's message, an
 * error's ending), else undefined.
 */
export function templateWithin(
  text: string,
  facts: ValueFacts,
  max = MAX_TEMPLATE_CHARS,
): string | undefined {
  if (text.length > max) return undefined;
  const template = templateOf(text, facts);
  return template.length > max ? undefined : template;
}

/** The kind of a text that is one of the facts whole: a task ID, a model, the request ID, a status. */
function factNamed(text: string, facts: ValueFacts): ShapeNode | undefined {
  if (facts.taskIds.has(text)) return { kind: 'task-id' };
  if (facts.models.has(text) && text.trim().length > 2) return { kind: 'model' };
  if (facts.serviceRequestId !== undefined && text === facts.serviceRequestId)
    return { kind: 'request-id' };
  if (text === facts.state?.status) return { kind: 'status' };
  if (text === facts.state?.wrapper) return { kind: 'wrapper-status' };
  return undefined;
}

const escapeBraces = (text: string) => text.replace(/[{}]/g, (c) => c + c);

/**
 * The wording of a text with what is not the deployment's own replaced by slots: the task ID, the
 * request ID, models, prompts, URLs (a signed address is never kept) and other identifiers. Linear in
 * the text's length for each fact (issue 33 item 5: any text, line breaks included).
 */
export function templateOf(text: string, facts: ValueFacts): string {
  const slots: [string, string][] = [
    ...facts.prompts.map((p): [string, string] => [p, '{prompt}']),
    ...[...facts.taskIds].map((id): [string, string] => [id, '{task-id}']),
    ...(facts.serviceRequestId === undefined
      ? []
      : [[facts.serviceRequestId, '{request-id}'] as [string, string]]),
    ...[...facts.models].map((m): [string, string] => [m, '{model}']),
  ]
    // A fact of a character or two would name half the text.
    .filter(([fact]) => fact.trim().length > 2)
    .sort((a, b) => b[0].length - a[0].length);
  // Split on the facts first (longest first), escape what is left, then name URLs and IDs in it.
  let pieces: (string | { slot: string })[] = [text];
  for (const [fact, slot] of slots)
    pieces = pieces.flatMap((piece) =>
      typeof piece === 'string' ? interleave(piece.split(fact), { slot }) : [piece],
    );
  // The state's own words, whole words only ("queued", not "enqueued").
  for (const [word, slot] of [
    [facts.state?.status, '{status}'],
    [facts.state?.wrapper, '{wrapper-status}'],
  ] as const) {
    if (word === undefined || word.length < 3) continue;
    const whole = new RegExp(`(?<![A-Za-z0-9_])${escapeRegExp(word)}(?![A-Za-z0-9_])`);
    pieces = pieces.flatMap((piece): (string | { slot: string })[] =>
      typeof piece === 'string' ? interleave(piece.split(whole), { slot }) : [piece],
    );
  }
  return pieces
    .map((piece) => (typeof piece === 'string' ? nameTokens(piece) : piece.slot))
    .join('');
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

function interleave<T>(parts: readonly string[], between: T): (string | T)[] {
  return parts.flatMap((part, i) => (i === 0 ? [part] : [between, part]));
}

/** Characters that open or close a word without being part of it: `("task_…")`, `url,`. */
const OPENING = new Set(['(', '"', "'", '[']);
const CLOSING = new Set([')', '"', "'", ']', '.', ',', ';', ':']);

/** Each whitespace-separated word of a text that is an address or an identifier, named as a slot. */
function nameTokens(text: string): string {
  return text
    .split(/(\s+)/)
    .map((token) => {
      let start = 0;
      while (start < token.length && OPENING.has(token[start]!)) start++;
      let end = token.length;
      while (end > start && CLOSING.has(token[end - 1]!)) end--;
      const word = token.slice(start, end);
      const slot = /^https?:\/\//.test(word) ? '{url}' : isIdLike(word) ? '{id}' : undefined;
      if (slot === undefined) return escapeBraces(token);
      return escapeBraces(token.slice(0, start)) + slot + escapeBraces(token.slice(end));
    })
    .join('');
}

/**
 * The family a node merges within when learning (`mergeNodes`): nodes of one family merge into one
 * node, others sit side by side in a `oneOf`. A string constant is a `word`; a number an integer's.
 */
export function mergeFamilyOf(node: ShapeNode): string {
  if ('object' in node) return 'object';
  if ('array' in node) return 'array';
  if ('oneOf' in node) return 'oneOf';
  if ('const' in node) {
    const v = node.const;
    return v === null ? 'null' : typeof v === 'string' ? 'word' : typeof v;
  }
  if (node.kind === 'integer' || node.kind === 'number') return 'number';
  return node.kind;
}

/** One node describing what both describe. */
export function mergeNodes(a: ShapeNode, b: ShapeNode): ShapeNode {
  const members = [...('oneOf' in a ? a.oneOf : [a]), ...('oneOf' in b ? b.oneOf : [b])];
  const byFamily = new Map<string, ShapeNode>();
  for (const member of members) {
    const family = mergeFamilyOf(member);
    const seen = byFamily.get(family);
    byFamily.set(family, seen === undefined ? member : mergeSame(seen, member));
  }
  const merged = [...byFamily.values()];
  return merged.length === 1 ? merged[0]! : { oneOf: merged };
}

function mergeSame(a: ShapeNode, b: ShapeNode): ShapeNode {
  if ('object' in a && 'object' in b) return mergeObjects(a, b);
  if ('array' in a && 'array' in b) {
    const items =
      a.array === null ? b.array : b.array === null ? a.array : mergeNodes(a.array, b.array);
    return {
      array: items,
      length: [Math.min(a.length[0], b.length[0]), Math.max(a.length[1], b.length[1])],
    };
  }
  if ('const' in a && 'const' in b && a.const === b.const) return a;
  return mergeLeaves(asLeaf(a), asLeaf(b));
}

function mergeObjects(
  a: Extract<ShapeNode, { object: unknown }>,
  b: Extract<ShapeNode, { object: unknown }>,
): ShapeNode {
  const object: Record<string, ShapeNode> = {};
  const optional = new Set([...(a.optional ?? []), ...(b.optional ?? [])]);
  const keys = [...new Set([...Object.keys(a.object), ...Object.keys(b.object)])];
  for (const key of keys.slice(0, MAX_OBJECT_FIELDS)) {
    const left = Object.hasOwn(a.object, key) ? a.object[key] : undefined;
    const right = Object.hasOwn(b.object, key) ? b.object[key] : undefined;
    if (left === undefined || right === undefined) optional.add(key);
    const merged =
      left === undefined ? right! : right === undefined ? left : mergeNodes(left, right);
    Object.defineProperty(object, key, {
      value: merged,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  for (const key of keys.slice(MAX_OBJECT_FIELDS)) optional.delete(key);
  return optional.size === 0 ? { object } : { object, optional: [...optional].sort() };
}

function asLeaf(node: ShapeNode): LeafNode {
  if (!('const' in node)) return node as LeafNode;
  const { const: value } = node;
  if (typeof value === 'string') return { kind: 'word', values: [value] };
  if (typeof value === 'number')
    return { kind: Number.isInteger(value) ? 'integer' : 'number', range: [value, value] };
  return { kind: 'boolean' };
}

function mergeLeaves(a: LeafNode, b: LeafNode): LeafNode {
  // Same family: integer and number make a number; every other family has one kind.
  const kind: LeafKind = a.kind === 'number' || b.kind === 'number' ? 'number' : a.kind;
  const leaf: { -readonly [K in keyof LeafNode]: LeafNode[K] } = { kind };
  if (a.range !== undefined && b.range !== undefined)
    leaf.range = [Math.min(a.range[0], b.range[0]), Math.max(a.range[1], b.range[1])];
  if (a.form !== undefined && b.form !== undefined) leaf.form = mergeForms(a.form, b.form);
  Object.assign(leaf, mergeWording(a, b));
  if (a.values !== undefined || b.values !== undefined)
    leaf.values = [...new Set([...(a.values ?? []), ...(b.values ?? [])])]
      .sort()
      .slice(0, MAX_WORDS);
  return leaf;
}

/**
 * Two wordings of one text: the first stands for both (a text always has words to render); a text
 * known only by its length stays so until a wording is seen.
 */
function mergeWording(a: LeafNode, b: LeafNode): Pick<LeafNode, 'template' | 'length'> {
  const template = a.template ?? b.template;
  if (template !== undefined) return { template };
  if (a.length === undefined || b.length === undefined) {
    const length = a.length ?? b.length;
    return length === undefined ? {} : { length };
  }
  return { length: widen(a.length, b.length) };
}

const widen = (a: readonly [number, number], b: readonly [number, number]): [number, number] => [
  Math.min(a[0], b[0]),
  Math.max(a[1], b[1]),
];

/** A short, readable name of a node's kind for reports: `object`, `"video"`, `id task_{alnum:32}`. */
export function kindLabel(node: ShapeNode): string {
  if ('object' in node) return 'object';
  if ('array' in node) return 'array';
  if ('oneOf' in node) return node.oneOf.map(kindLabel).join(' | ');
  if ('const' in node) return JSON.stringify(node.const);
  if (node.kind === 'id') return `id ${node.form ?? ''}`.trim();
  return node.kind;
}

import {
  generateId,
  parseForm,
  type FormPart,
  type LeafKind,
  type LeafNode,
  type ShapeNode,
} from '../../../src/profile/index.ts';
import { createRandom } from '../plan/random.ts';

/**
 * A learned shape compiled once, at load, into a function that renders a value of that shape
 * (decisions/018). The core's own answer is the source: what it decides (the task's state, IDs, times,
 * the result address, failures) wins wherever the shape has a place for it; the shape decides which
 * fields exist, constants, and how a value reads; what the core has no value for is generated in the
 * learned kind and form.
 */

/** What a rendering may draw on besides the core's answer. */
export interface RenderFacts {
  /** The public ID (in the deployment's form) of the task the answer is about. */
  readonly taskId: string | undefined;
  readonly model: string | undefined;
  readonly serviceRequestId: string;
  readonly origin: string;
  /** The task's state, in the OpenAI form's words and the wrapper's. */
  readonly status?: string | undefined;
  readonly wrapperStatus?: string | undefined;
  /** Simulated now, ms. */
  readonly nowMs: number;
  /** When the task was created, ms (for times the core has no value for). */
  readonly createdMs: number | undefined;
  /** Seeds generated values: the same task renders the same generated values every time. */
  readonly seed: string;
  /** A core task ID in a text, in the deployment's form. */
  readonly publicId: (coreId: string) => string;
  /** The models the caller may use (a catalog of the deployment's own shape lists them). */
  readonly catalog: () => readonly string[];
}

export type Render = (source: unknown, facts: RenderFacts, path: string) => unknown;

/** A field left out of the answer. */
export const OMIT = Symbol('omit');

/**
 * Fields whose value the core decides (§2.2, §2.3, §4.5 and the gateway's row fields): a learned
 * constant there never replaces the core's value (a forced error code, the row, the charge). The
 * platform and the group are the deployment's own words and read as learned.
 */
const BOUND = new Set([
  'id',
  'task_id',
  'model',
  'status',
  'progress',
  'created_at',
  'updated_at',
  'completed_at',
  'metadata.url',
  'error.code',
  'error.message',
  'content.video_url',
  'data.task_id',
  'data.status',
  'data.progress',
  'data.result_url',
  'data.fail_reason',
  'data.created_at',
  'data.updated_at',
  'data.id',
  'data.user_id',
  'data.channel_id',
  'data.quota',
  'data.submit_time',
  'data.start_time',
  'data.finish_time',
]);

export interface CompileOptions {
  /** Keep the core's fields the shape does not name (a state the run never saw). */
  readonly lenient: boolean;
  /** Whether the core's answer is a source at all (a refusal renders from its shape alone). */
  readonly bound: boolean;
  /** The most characters this node may generate (default `MAX_GENERATED_CHARS`). */
  readonly budget?: number | undefined;
}

/**
 * The most characters of JSON a compiled answer generates where the core has no value (issue 33 item
 * 12: a hand-edited list length of 100,000,000 in a 30 KB profile took the mock to 2.8 GB on one
 * request). A list is generated with as many items as fit (its learned length at most), a text of a
 * learned length as long as fits; fields share what their parent may generate. A learned answer is a
 * few KB: this bounds only what no deployment sent.
 */
export const MAX_GENERATED_CHARS = 2 ** 20;

const SIZES = new WeakMap<ShapeNode, number>();

/** About how many characters a node generates with no value of the core's (capped, memoised). */
function sizeOf(node: ShapeNode): number {
  const known = SIZES.get(node);
  if (known !== undefined) return known;
  let size: number;
  if ('object' in node)
    size = Object.entries(node.object).reduce(
      (n, [key, child]) => n + key.length + 4 + sizeOf(child),
      2,
    );
  else if ('array' in node)
    size = 2 + (node.array === null ? 0 : node.length[0] * (sizeOf(node.array) + 1));
  else if ('oneOf' in node) size = Math.max(...node.oneOf.map(sizeOf));
  else if ('const' in node) size = String(node.const).length + 2;
  else size = node.kind === 'text' ? (node.template?.length ?? node.length?.[0] ?? 4) + 2 : 40;
  size = Math.min(size, Number.MAX_SAFE_INTEGER);
  SIZES.set(node, size);
  return size;
}

/**
 * Each field's share of its object's budget: all it needs when they fit; else the smaller ones whole
 * and the rest in equal parts (one huge field does not starve the others).
 */
function shares(children: readonly ShapeNode[], budget: number): number[] {
  const sizes = children.map(sizeOf);
  const order = sizes.map((_, i) => i).sort((a, b) => sizes[a]! - sizes[b]!);
  const out: number[] = [];
  let left = budget;
  order.forEach((i, k) => {
    out[i] = Math.min(sizes[i]!, Math.floor(left / (order.length - k)));
    left -= out[i];
  });
  return out;
}

/** The least budget a generated list takes one item in (below it, none). */
const SMALLEST_ITEM = 64;

export function compileNode(node: ShapeNode, options: CompileOptions, path = ''): Render {
  if ('object' in node) return compileObject(node, options, path);
  if ('array' in node) {
    const budget = options.budget ?? MAX_GENERATED_CHARS;
    const itemSize = node.array === null ? 1 : Math.max(1, sizeOf(node.array) + 1);
    // As many items as fit, at least one when the budget has room (its item then made to fit).
    const fitting = Math.max(budget >= SMALLEST_ITEM ? 1 : 0, Math.floor(budget / itemSize));
    const length = Math.min(node.length[0], fitting);
    const itemBudget = Math.floor(budget / Math.max(1, length));
    const items =
      node.array === null
        ? undefined
        : compileNode(node.array, { ...options, budget: itemBudget }, path);
    const listsModels = node.array !== null && namesModel(node.array);
    return (source, facts, at): unknown => {
      if (Array.isArray(source)) {
        const list = source as unknown[];
        return items === undefined ? list : list.map((item) => items(item, facts, at));
      }
      if (items === undefined) return [];
      // A list of models in the deployment's own shape: one item per model the caller may use.
      if (listsModels)
        return facts
          .catalog()
          .map((model) => items(undefined, { ...facts, model }, `${at}.${model}`));
      return Array.from({ length }, (_, i) => items(undefined, facts, `${at}.${i}`));
    };
  }
  if ('oneOf' in node) {
    const members = node.oneOf.map((m) => ({ node: m, render: compileNode(m, options, path) }));
    // Without a value of the core's, a field the deployment sometimes left null stays null.
    const unset = members.find((m) => 'const' in m.node && m.node.const === null) ?? members[0]!;
    return (source, facts, at) => {
      const fitting = members.find((m) => fits(m.node, source)) ?? unset;
      return fitting.render(source, facts, at);
    };
  }
  if ('const' in node) {
    const value = node.const;
    const bound = options.bound && BOUND.has(path);
    return (source) =>
      bound && source !== undefined && typeof source === typeof value ? source : value;
  }
  return compileLeaf(node, options);
}

function compileObject(
  node: Extract<ShapeNode, { object: unknown }>,
  options: CompileOptions,
  path: string,
): Render {
  const optional = new Set(node.optional ?? []);
  const entries = Object.entries(node.object);
  const budgets = shares(
    entries.map(([, child]) => child),
    options.budget ?? MAX_GENERATED_CHARS,
  );
  const fields = entries.map(([key, child], i) => ({
    key,
    optional: optional.has(key),
    render: compileNode(
      child,
      { ...options, budget: budgets[i] },
      path === '' ? key : `${path}.${key}`,
    ),
  }));
  const named = new Set(fields.map((f) => f.key));
  return (source, facts, at) => {
    const from = isObject(source) ? source : undefined;
    const out: Record<string, unknown> = {};
    for (const { key, optional: maybe, render } of fields) {
      const value = from?.[key];
      // A field the deployment sent only sometimes is sent when the core has a value for it.
      if (maybe && value === undefined && options.bound) continue;
      const rendered = render(value, facts, `${at}.${key}`);
      if (rendered !== OMIT) out[key] = rendered;
    }
    if (options.lenient && from !== undefined)
      for (const [key, value] of Object.entries(from)) if (!named.has(key)) out[key] = value;
    return out;
  };
}

/** Whether a list's items name a model (the catalog's items, whatever their shape). */
function namesModel(node: ShapeNode): boolean {
  if ('kind' in node) return node.kind === 'model';
  if ('object' in node)
    return Object.values(node.object).some((child) => 'kind' in child && child.kind === 'model');
  return false;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Whether a source value has the type a node describes (choosing among `oneOf`). */
function fits(node: ShapeNode, source: unknown): boolean {
  if ('object' in node) return isObject(source);
  if ('array' in node) return Array.isArray(source);
  if ('oneOf' in node) return node.oneOf.some((m) => fits(m, source));
  if ('const' in node) return source === node.const;
  return compatible(node, source);
}

/** Whether the core's value can stand for a leaf of this kind. */
function compatible(leaf: LeafNode, value: unknown): boolean {
  switch (leaf.kind) {
    case 'integer':
    case 'number':
      // The core's number stands, whatever its kind (a charge of 2.5 where the deployment's were whole).
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'unix-seconds':
    case 'unix-ms':
      return typeof value === 'number';
    case 'empty':
      return value === '';
    case 'url':
      return typeof value === 'string' && /^https?:\/\//.test(value);
    case 'percent':
      return typeof value === 'string' && /%$/.test(value);
    case 'word':
      return typeof value === 'string' && isLearnedWord(leaf, value);
    default:
      return typeof value === 'string';
  }
}

/**
 * A word reads as one the deployment used (its channel's name, not the mock's "54"), unless it used
 * many (a list of them is kept only up to eight).
 */
function isLearnedWord(leaf: LeafNode, value: string): boolean {
  return leaf.values === undefined || leaf.values.length >= 8 || leaf.values.includes(value);
}

/** Numbers in [0, 1) for one generated value: the same task and field draw the same every time. */
const random = (facts: RenderFacts, path: string) => {
  const source = createRandom(`${facts.seed}|${path}`);
  return { next: () => source.next(), between: (a: number, b: number) => source.between(a, b) };
};

function compileLeaf(leaf: LeafNode, options: CompileOptions): Render {
  const budget = options.budget ?? MAX_GENERATED_CHARS;
  const generate = generator(
    leaf.length === undefined || leaf.length[0] <= budget
      ? leaf
      : { ...leaf, length: [budget, budget] },
  );
  if (!options.bound) return (_source, facts, at) => generate(facts, at);
  if (leaf.kind === 'task-id')
    return (source, facts, at) =>
      typeof source === 'string' ? facts.publicId(source) : generate(facts, at);
  return (source, facts, at) => {
    if (source !== undefined && compatible(leaf, source)) return source;
    if (leaf.kind === 'percent' && typeof source === 'number') return `${source}%`;
    if (leaf.kind === 'integer' && typeof source === 'string' && /^\d+%$/.test(source))
      return Number.parseInt(source, 10);
    return generate(facts, at);
  };
}

type Generate = (facts: RenderFacts, path: string) => unknown;

/** A value of a leaf's kind when the core has none. */
function generator(leaf: LeafNode): Generate {
  return GENERATORS[leaf.kind](leaf);
}

/** Per leaf kind, how to make its generator (once per compiled leaf, not per answer). */
const GENERATORS: Readonly<Record<LeafKind, (leaf: LeafNode) => Generate>> = {
  'task-id': () => (facts, at) => facts.taskId ?? generateId(TASK_FORM, random(facts, at).next),
  model: () => (facts) => facts.model ?? '',
  'request-id': () => (facts) => facts.serviceRequestId,
  status: () => (facts) => facts.status ?? '',
  'wrapper-status': () => (facts) => facts.wrapperStatus ?? '',
  integer: numberGenerator,
  number: numberGenerator,
  boolean: () => () => true,
  'unix-seconds': () => (facts, at) => Math.floor(timeFor(facts, at) / 1000),
  'unix-ms': () => (facts, at) => Math.floor(timeFor(facts, at)),
  'iso-time': () => (facts, at) => new Date(timeFor(facts, at)).toISOString(),
  percent: () => () => '0%',
  url: () => (facts) => `${facts.origin}/v1/videos/${facts.taskId ?? 'unknown'}/content`,
  empty: () => () => '',
  word: (leaf) => () => leaf.values?.[0] ?? 'unknown',
  text: (leaf) => {
    // A text learned by its length alone (too long for a template): filler of that length.
    if (leaf.template === undefined && leaf.length !== undefined) {
      const filler = 'text '.repeat(Math.ceil(leaf.length[0] / 5)).slice(0, leaf.length[0]);
      return () => filler;
    }
    const template = compileTemplate(leaf.template ?? 'text');
    return (facts, at) => template(facts, at);
  },
  id: (leaf) => {
    const form = parseForm(leaf.form!);
    return (facts, at) => generateId(form, random(facts, at).next);
  },
};

function numberGenerator(leaf: LeafNode): Generate {
  const [low, high] = leaf.range ?? [0, 0];
  const whole = leaf.kind === 'integer';
  return (facts, at) => {
    const value = random(facts, at).between(low, high);
    return whole ? Math.round(value) : Math.round(value * 1000) / 1000;
  };
}

const TASK_FORM: readonly FormPart[] = parseForm('task_{alnum:32}');

/** Creation and submission times are the task's; every other time is now. */
function timeFor(facts: RenderFacts, path: string): number {
  return /creat|submit/.test(path) && facts.createdMs !== undefined ? facts.createdMs : facts.nowMs;
}

const SLOTS = /\{\{|\}\}|\{(task-id|request-id|model|status|wrapper-status|prompt|url|id)\}/g;

/** A learned wording with its slots filled: `Task {task-id} not found (request id: {request-id})`. */
export function compileTemplate(template: string): (facts: RenderFacts, path: string) => string {
  const parts: (string | ((facts: RenderFacts, path: string) => string))[] = [];
  let at = 0;
  for (const match of template.matchAll(SLOTS)) {
    parts.push(template.slice(at, match.index));
    at = match.index + match[0].length;
    const slot = match[1];
    if (slot === undefined) parts.push(match[0][0]!);
    else parts.push(slotValue(slot));
  }
  parts.push(template.slice(at));
  const literal = parts.every((p) => typeof p === 'string') ? parts.join('') : undefined;
  if (literal !== undefined) return () => literal;
  return (facts, path) => parts.map((p) => (typeof p === 'string' ? p : p(facts, path))).join('');
}

function slotValue(slot: string): (facts: RenderFacts, path: string) => string {
  switch (slot) {
    case 'task-id':
      return (facts) => facts.taskId ?? '';
    case 'request-id':
      return (facts) => facts.serviceRequestId;
    case 'model':
      return (facts) => facts.model ?? '';
    case 'status':
      return (facts) => facts.status ?? '';
    case 'wrapper-status':
      return (facts) => facts.wrapperStatus ?? '';
    case 'url':
      return (facts) => `${facts.origin}/v1/videos/${facts.taskId ?? ''}`;
    case 'id':
      return (facts, path) => generateId(ID_FORM, random(facts, `${path}#id`).next);
    default:
      return () => '…';
  }
}

const ID_FORM: readonly FormPart[] = parseForm('{alnum:24}');

import { MAX_JSON_DEPTH } from '../text/json-depth.ts';
import type { LeafNode, ObjectNode, ShapeNode } from './profile-format.ts';

/**
 * The bounds of what a learner keeps (issue 33 item 8: `learn` kept every answer it read whole, ~1 GB
 * on a deployment answering 4 MiB bodies, and merged every field it ever saw into profiles of 141 MB).
 * An answer is kept as the part of it a shape is learned from (`pruneJson`), and a learned shape is
 * bounded as it grows (`boundShape`): a real answer of the service is far inside both, so only a
 * hostile or runaway deployment's answers are cut, and the profile stays within what a reader takes.
 */

/** The most fields an object of a shape keeps (the first seen): the profile schema's bound. */
export const MAX_OBJECT_FIELDS = 256;
/**
 * The most items of a list an answer is kept with (the list's length is kept too): a catalog's models
 * (the profile lists up to 200); a shape is learned from the first 50.
 */
export const MAX_LIST_ITEMS = 200;
/** The longest text kept whole; past it, a text is known by its length (`ElidedText`). */
export const MAX_KEPT_TEXT = 2000;
/** What one kept answer may hold: values (each counts 32) and characters of texts and names. */
export const MAX_KEPT_WEIGHT = 64 * 1024;
/** What one learned shape may hold, measured alike: ~50 KB of profile at most per answer. */
export const MAX_SHAPE_WEIGHT = 16 * 1024;

const NODE_WEIGHT = 32;

/** A text of an answer not kept (too long, or past the answer's weight): its length alone. */
export class ElidedText {
  constructor(readonly length: number) {}
}

/** A list cut to `MAX_LIST_ITEMS` items carries its full length under this key. */
export const PRUNED_LENGTH: unique symbol = Symbol('videotask.prunedLength');

/** The length of a list as the answer had it (cut or not). */
export const listLength = (list: readonly unknown[]): number =>
  (list as { [PRUNED_LENGTH]?: number })[PRUNED_LENGTH] ?? list.length;

/**
 * The part of a parsed JSON answer a shape is learned from, in bounded memory: lists cut to their
 * first items (`PRUNED_LENGTH` keeps the length), objects to their first fields, long texts and
 * whatever lies past `MAX_KEPT_WEIGHT` as `ElidedText`, nesting past `MAX_JSON_DEPTH` left out
 * (null). An answer of the service is kept as it was.
 */
export function pruneJson(value: unknown): unknown {
  return prune(value, { left: MAX_KEPT_WEIGHT, reserve: RESERVE }, 0);
}

interface Budget {
  left: number;
  /** What fields read by name may still take once `left` is spent (one pool an answer). */
  reserve: number;
}

function prune(value: unknown, budget: Budget, depth: number): unknown {
  budget.left -= NODE_WEIGHT;
  if (typeof value === 'string') {
    if (value.length > MAX_KEPT_TEXT || value.length > budget.left)
      return new ElidedText(value.length);
    budget.left -= value.length;
    return value;
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_JSON_DEPTH || budget.left <= 0) return null;
  if (Array.isArray(value)) {
    const items = (value as unknown[])
      .slice(0, MAX_LIST_ITEMS)
      .map((item) => prune(item, budget, depth + 1));
    if (value.length > items.length)
      Object.defineProperty(items, PRUNED_LENGTH, { value: value.length });
    return items;
  }
  return pruneObject(value as Record<string, unknown>, budget, depth);
}

/**
 * Fields a learner reads by name (a task's ID and state, progress, an error's code and wording, the
 * wrapper's data, a catalog's list): kept wherever they stand, with a reserve of their own, so that
 * padding before them cannot push them out.
 */
const READ_BY_NAME = new Set([
  'id',
  'task_id',
  'status',
  'progress',
  'error',
  'code',
  'message',
  'data',
  'fail_reason',
  'model',
  'object',
]);
const RESERVE = 16 * 1024;

function pruneObject(value: Record<string, unknown>, budget: Budget, depth: number): unknown {
  const entries: [string, unknown][] = [];
  let others = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (READ_BY_NAME.has(key) && depth < 2)
      entries.push([key, reserved(value[key], budget, depth)]);
    else if (others < MAX_OBJECT_FIELDS && budget.left > 0) {
      others++;
      budget.left -= key.length;
      entries.push([key, prune(value[key], budget, depth + 1)]);
    }
  }
  // Defined, not assigned: a `__proto__` field stays a field.
  return Object.fromEntries(entries);
}

/** A field read by name, pruned with what is left and the answer's reserve. */
function reserved(value: unknown, budget: Budget, depth: number): unknown {
  const own: Budget = { left: Math.max(0, budget.left) + budget.reserve, reserve: 0 };
  const start = own.left;
  const kept = prune(value, own, depth + 1);
  const spent = start - own.left;
  const fromLeft = Math.min(Math.max(0, budget.left), spent);
  budget.left -= fromLeft;
  budget.reserve = Math.max(0, budget.reserve - (spent - fromLeft));
  return kept;
}

/**
 * A learned shape within `MAX_SHAPE_WEIGHT`, its first parts whole (depth first, fields in order):
 * past the budget, an object keeps no more fields, a list no items' shape, a text no wording (its
 * length, when known), a list of alternatives its first. At most `MAX_OBJECT_FIELDS` fields each.
 */
export function boundShape(node: ShapeNode, weight = MAX_SHAPE_WEIGHT): ShapeNode {
  return bound(node, { left: weight });
}

type ShapeBudget = { left: number };

function bound(node: ShapeNode, budget: ShapeBudget): ShapeNode {
  budget.left -= NODE_WEIGHT;
  if ('object' in node) return boundObject(node, budget);
  if ('array' in node)
    return {
      array: node.array === null || budget.left <= 0 ? null : bound(node.array, budget),
      length: node.length,
    };
  if ('oneOf' in node) {
    const members: ShapeNode[] = [];
    for (const member of node.oneOf)
      if (members.length === 0 || budget.left > 0) members.push(bound(member, budget));
    return members.length === 1 ? members[0]! : { oneOf: members };
  }
  if ('const' in node) {
    if (typeof node.const !== 'string') return node;
    budget.left -= node.const.length;
    return budget.left >= 0 ? node : { kind: 'word' };
  }
  return boundLeaf(node, budget);
}

function boundObject(node: ObjectNode, budget: ShapeBudget): ShapeNode {
  const fields: [string, ShapeNode][] = [];
  for (const [key, child] of Object.entries(node.object)) {
    if (fields.length >= MAX_OBJECT_FIELDS || budget.left <= 0) break;
    budget.left -= key.length;
    fields.push([key, bound(child, budget)]);
  }
  const kept = new Set(fields.map(([key]) => key));
  const optional = node.optional?.filter((key) => kept.has(key));
  const object = Object.fromEntries(fields) as Record<string, ShapeNode>;
  return optional === undefined || optional.length === 0 ? { object } : { object, optional };
}

/** A leaf within the budget; past it, its kind: a text its length, an identifier a generic form. */
function boundLeaf(node: LeafNode, budget: ShapeBudget): ShapeNode {
  const text =
    (node.template?.length ?? 0) + (node.form?.length ?? 0) + (node.values ?? []).join('').length;
  budget.left -= text;
  if (budget.left >= 0 || text === 0) return node;
  const { kind, range } = node;
  if (kind === 'text') {
    const chars = node.template?.length ?? 0;
    return { kind, length: node.length ?? [chars, chars] };
  }
  if (kind === 'id') return { kind, form: '{alnum:24}' };
  return range === undefined ? { kind } : { kind, range };
}

import type { components } from '../generated/openapi.ts';
import { pluginTaskStatusValues, videoStatusValues } from '../generated/openapi.ts';
import { basisOf, type Basis, type Marked, type OpenApiDocument } from './spec-types.ts';

export type VideoStatus = components['schemas']['VideoStatus'];
export type VideoTask = components['schemas']['VideoTask'];

export interface StateSet {
  readonly values: readonly VideoStatus[];
  readonly basis: Basis;
}

export interface FieldRule {
  /** Dotted names (`metadata.url`). */
  readonly fields: readonly string[];
  readonly basis: Basis;
}

export interface MappingRow {
  readonly openai: VideoStatus;
  /** Wrapper statuses for this OpenAI status; the first is the canonical one. */
  readonly wrapper: readonly string[];
  readonly basis: Basis;
}

export type PluginTaskStatus = components['schemas']['PluginTaskStatus'];

export interface PluginMappingRow {
  readonly openai: VideoStatus;
  /** Native-path statuses for this OpenAI status; the first is the canonical one. */
  readonly native: readonly PluginTaskStatus[];
}

export interface LifecycleRule {
  readonly id: string;
  readonly description: string;
  readonly basis: Basis;
}

/**
 * The `x-lifecycle` table of the spec as typed data: the one declaration that drives both the
 * simulated service and the contract checks.
 */
export interface Lifecycle {
  readonly basis: Basis;
  readonly states: StateSet;
  readonly initial: StateSet;
  readonly stopPolling: StateSet;
  readonly pollAgain: StateSet;
  readonly slowDown: StateSet;
  readonly terminal: StateSet;
  /** Typed by the generated status union: a status added to the spec must get a row here. */
  readonly transitions: {
    readonly table: Readonly<Record<VideoStatus, readonly VideoStatus[]>>;
    readonly basis: Basis;
  };
  readonly mapping: { readonly rows: readonly MappingRow[]; readonly basis: Basis };
  /** OpenAI status ↔ the second family's native-path status (§4.5; assumed). */
  readonly pluginMapping: { readonly rows: readonly PluginMappingRow[]; readonly basis: Basis };
  readonly presence: {
    readonly always: FieldRule;
    readonly onSubmission: FieldRule;
    readonly byStatus: Readonly<Partial<Record<VideoStatus, FieldRule>>>;
  };
  readonly rules: ReadonlyMap<string, LifecycleRule>;
}

type Raw = Marked & Record<string, unknown>;

const STATUSES = new Set<string>(videoStatusValues);
const NATIVE_STATUSES = new Set<string>(pluginTaskStatusValues);

/** Reads and checks `x-lifecycle`. Throws naming the first inconsistency. */
export function readLifecycle(document: OpenApiDocument): Lifecycle {
  const raw = object(document['x-lifecycle'], 'x-lifecycle');
  const transitionsNode = object(raw['transitions'], 'x-lifecycle.transitions');
  const table = transitionTable(transitionsNode);
  const mappingNode = object(raw['mapping'], 'x-lifecycle.mapping');
  const rows = mappingRows(mappingNode);
  const pluginNode = object(raw['pluginMapping'], 'x-lifecycle.pluginMapping');
  const pluginRows = pluginMappingRows(pluginNode);
  const presenceNode = object(raw['presence'], 'x-lifecycle.presence');
  const byStatus = presenceByStatus(presenceNode);
  const rules = lifecycleRules(raw);

  return {
    basis: basisOf(raw),
    states: stateSet(raw, 'states'),
    initial: stateSet(raw, 'initial'),
    stopPolling: stateSet(raw, 'stopPolling'),
    pollAgain: stateSet(raw, 'pollAgain'),
    slowDown: stateSet(raw, 'slowDown'),
    terminal: stateSet(raw, 'terminal'),
    transitions: { table, basis: basisOf(transitionsNode) },
    mapping: { rows, basis: basisOf(mappingNode) },
    pluginMapping: { rows: pluginRows, basis: basisOf(pluginNode) },
    presence: {
      always: fieldRule(presenceNode['always'], 'x-lifecycle.presence.always'),
      onSubmission: fieldRule(presenceNode['onSubmission'], 'x-lifecycle.presence.onSubmission'),
      byStatus,
    },
    rules,
  };
}

function stateSet(raw: Raw, key: string): StateSet {
  const node = object(raw[key], `x-lifecycle.${key}`);
  const values = stringList(node['values'], `x-lifecycle.${key}.values`);
  for (const v of values)
    if (!STATUSES.has(v))
      throw new Error(`x-lifecycle.${key}: "${v}" is not a status of the VideoStatus enum`);
  return { values: values as VideoStatus[], basis: basisOf(node) };
}

function fieldRule(node: unknown, where: string): FieldRule {
  const n = object(node, where);
  return { fields: stringList(n['fields'], `${where}.fields`), basis: basisOf(n) };
}

function transitionTable(transitionsNode: Raw): Record<VideoStatus, readonly VideoStatus[]> {
  const tableNode = object(transitionsNode['table'], 'x-lifecycle.transitions.table');
  const table = {} as Record<VideoStatus, readonly VideoStatus[]>;
  for (const status of videoStatusValues) {
    const next = stringList(tableNode[status], `x-lifecycle.transitions.table.${status}`);
    for (const v of next)
      if (!STATUSES.has(v))
        throw new Error(`x-lifecycle.transitions.table.${status}: "${v}" is not a status`);
    table[status] = next as VideoStatus[];
  }
  for (const key of Object.keys(tableNode))
    if (!STATUSES.has(key))
      throw new Error(`x-lifecycle.transitions.table: "${key}" is not a status`);
  return table;
}

function mappingRows(mappingNode: Raw): MappingRow[] {
  return list(mappingNode['rows'], 'x-lifecycle.mapping.rows').map((row, i): MappingRow => {
    const r = object(row, `x-lifecycle.mapping.rows[${i}]`);
    const openai = String(r['openai']);
    if (!STATUSES.has(openai))
      throw new Error(`x-lifecycle.mapping.rows[${i}].openai: "${openai}" is not a status`);
    const wrapper = stringList(r['wrapper'], `x-lifecycle.mapping.rows[${i}].wrapper`);
    if (wrapper.length === 0) throw new Error(`x-lifecycle.mapping.rows[${i}].wrapper is empty`);
    return { openai: openai as VideoStatus, wrapper, basis: basisOf(r) };
  });
}

function pluginMappingRows(pluginNode: Raw): PluginMappingRow[] {
  return list(pluginNode['rows'], 'x-lifecycle.pluginMapping.rows').map(
    (row, i): PluginMappingRow => {
      const r = object(row, `x-lifecycle.pluginMapping.rows[${i}]`);
      const openai = String(r['openai']);
      if (!STATUSES.has(openai))
        throw new Error(`x-lifecycle.pluginMapping.rows[${i}].openai: "${openai}" is not a status`);
      const native = stringList(r['native'], `x-lifecycle.pluginMapping.rows[${i}].native`);
      for (const v of native)
        if (!NATIVE_STATUSES.has(v))
          throw new Error(`x-lifecycle.pluginMapping.rows[${i}]: "${v}" is not a PluginTaskStatus`);
      if (native.length === 0)
        throw new Error(`x-lifecycle.pluginMapping.rows[${i}].native is empty`);
      return { openai: openai as VideoStatus, native: native as PluginTaskStatus[] };
    },
  );
}

function presenceByStatus(presenceNode: Raw): Partial<Record<VideoStatus, FieldRule>> {
  const byStatusNode = object(presenceNode['byStatus'], 'x-lifecycle.presence.byStatus');
  const byStatus: Partial<Record<VideoStatus, FieldRule>> = {};
  for (const [status, node] of Object.entries(byStatusNode)) {
    if (!STATUSES.has(status))
      throw new Error(`x-lifecycle.presence.byStatus: "${status}" is not a status`);
    byStatus[status as VideoStatus] = fieldRule(node, `x-lifecycle.presence.byStatus.${status}`);
  }
  return byStatus;
}

function lifecycleRules(raw: Raw): Map<string, LifecycleRule> {
  const rulesNode = object(raw['rules'], 'x-lifecycle.rules');
  const rules = new Map<string, LifecycleRule>();
  list(rulesNode['list'], 'x-lifecycle.rules.list').forEach((node, i) => {
    const r = object(node, `x-lifecycle.rules.list[${i}]`);
    const id = String(r['id']);
    if (rules.has(id)) throw new Error(`x-lifecycle.rules: duplicate id "${id}"`);
    rules.set(id, { id, description: String(r['description'] ?? ''), basis: basisOf(r) });
  });
  return rules;
}

export function isTerminal(lifecycle: Lifecycle, status: VideoStatus): boolean {
  return lifecycle.terminal.values.includes(status);
}

export function canTransition(lifecycle: Lifecycle, from: VideoStatus, to: VideoStatus): boolean {
  return lifecycle.transitions.table[from].includes(to);
}

/** The wrapper status the service shows for an OpenAI status (the row's canonical value). */
export function toWrapperStatus(lifecycle: Lifecycle, status: VideoStatus): string {
  const row = lifecycle.mapping.rows.find((r) => r.openai === status);
  if (row === undefined) throw new Error(`x-lifecycle.mapping has no row for "${status}"`);
  return row.wrapper[0]!;
}

/** The OpenAI status a wrapper status maps to, or `undefined` for a wrapper value the table does not know. */
export function fromWrapperStatus(
  lifecycle: Lifecycle,
  wrapperStatus: string,
): VideoStatus | undefined {
  return lifecycle.mapping.rows.find((r) => r.wrapper.includes(wrapperStatus))?.openai;
}

/** The native-path status the second family's plugin shows for an OpenAI status. */
export function toNativeStatus(lifecycle: Lifecycle, status: VideoStatus): PluginTaskStatus {
  const row = lifecycle.pluginMapping.rows.find((r) => r.openai === status);
  if (row === undefined) throw new Error(`x-lifecycle.pluginMapping has no row for "${status}"`);
  return row.native[0]!;
}

/** The fields that must be present on a task object in a status, for a submission answer or a query. */
export function requiredFields(
  lifecycle: Lifecycle,
  status: VideoStatus,
  moment: 'submission' | 'query',
): FieldRule[] {
  const rules = [
    moment === 'submission' ? lifecycle.presence.onSubmission : lifecycle.presence.always,
  ];
  const byStatus = lifecycle.presence.byStatus[status];
  if (byStatus !== undefined) rules.push(byStatus);
  return rules;
}

/** The dotted field names of `fields` missing from `value`. */
export function missingFields(value: unknown, fields: readonly string[]): string[] {
  return fields.filter((path) => {
    let node: unknown = value;
    for (const part of path.split('.')) {
      if (node === null || typeof node !== 'object' || !(part in node)) return true;
      node = (node as Record<string, unknown>)[part];
    }
    return node === undefined;
  });
}

function object(value: unknown, where: string): Raw {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new Error(`${where} must be an object`);
  return value as Raw;
}

function list(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) throw new Error(`${where} must be a list`);
  return value;
}

function stringList(value: unknown, where: string): string[] {
  const items = list(value, where);
  for (const item of items)
    if (typeof item !== 'string') throw new Error(`${where} must list strings`);
  return items as string[];
}

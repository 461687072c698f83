import type { JsonSchema } from './spec-types.ts';

/**
 * Two readings of one schema:
 * - `documented`: only what the service document states. Any nested sub-schema marked
 *   `x-documented: false` is replaced by `true` (anything goes), and `x-assumed-required` is ignored.
 * - `full`: the documented rules plus every assumption: marked sub-schemas kept, and
 *   `x-assumed-required` merged into `required`.
 * A contract check fails on the first and only warns on what the second adds.
 */
export type SchemaVariant = 'documented' | 'full';

export function schemaVariant(schema: JsonSchema, variant: SchemaVariant): JsonSchema | boolean {
  if (variant === 'documented' && schema['x-documented'] === false) return true;
  return transform(schema, variant, new WeakMap()) as JsonSchema;
}

function transform(
  node: unknown,
  variant: SchemaVariant,
  seen: WeakMap<object, unknown>,
  isRoot = true,
): unknown {
  if (Array.isArray(node)) return node.map((item) => transform(item, variant, seen, false));
  if (node === null || typeof node !== 'object') return node;
  const cached = seen.get(node);
  if (cached !== undefined) return cached;
  const source = node as JsonSchema;
  if (
    !isRoot &&
    variant === 'documented' &&
    source['x-documented'] === false &&
    looksLikeSchema(source)
  )
    return true;
  const out: JsonSchema = {};
  seen.set(node, out);
  for (const [key, value] of Object.entries(source)) {
    // `const`, `enum`, `examples` and `default` hold instance data, not schemas: copy as they are.
    out[key] = INSTANCE_DATA.has(key) ? value : transform(value, variant, seen, false);
  }
  if (variant === 'full') mergeAssumedRequired(source, out);
  return out;
}

/** The `full` reading: `x-assumed-required` merged into `required`. */
function mergeAssumedRequired(source: JsonSchema, out: JsonSchema): void {
  const assumed = source['x-assumed-required'];
  if (!Array.isArray(assumed) || assumed.length === 0) return;
  const required = Array.isArray(source['required']) ? (source['required'] as string[]) : [];
  out['required'] = [...new Set([...required, ...(assumed as string[])])];
}

const INSTANCE_DATA = new Set(['const', 'enum', 'examples', 'default', 'example']);

function looksLikeSchema(node: JsonSchema): boolean {
  return [
    'type',
    'properties',
    'anyOf',
    'oneOf',
    'allOf',
    'items',
    'enum',
    'const',
    'required',
  ].some((k) => k in node);
}

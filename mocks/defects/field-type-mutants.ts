import type { Defect } from './defect.ts';
import { rewriteTaskAnswer, wrapperData } from './support.ts';

/**
 * Shape mutants (issue 31 item 7): for each field of a query answer that a statement of the document
 * states (`spec/statements.yaml`, by its pointer `/components/schemas/<Schema>/properties/<field>`),
 * a deployment that answers the field with another JSON type, wherever the field is there. The shape
 * check of that answer (`task.shape`, `wrapper.shape`) must catch it: that proves the check judges the
 * statement's field, part by part, where no rule does.
 */

/** Where a schema's fields are in a query answer, and the check that judges its shape. */
const SCHEMAS: Readonly<
  Record<string, { operation: string; check: string; inData: boolean; form: string }>
> = {
  VideoTask: { operation: 'getVideo', check: 'task.shape', inData: false, form: 'the OpenAI form' },
  TaskWrapper: {
    operation: 'getVideoGeneration',
    check: 'wrapper.shape',
    inData: false,
    form: 'the wrapper',
  },
  TaskWrapperData: {
    operation: 'getVideoGeneration',
    check: 'wrapper.shape',
    inData: true,
    form: "the wrapper's data",
  },
};

const POINTER = /^\/components\/schemas\/(\w+)\/properties\/(\w+)$/;

/** A value of another JSON type than `value`'s, or undefined where the field is absent. */
function otherType(value: unknown): unknown {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return 7;
  if (typeof value === 'number') return String(value);
  return 'not an object';
}

/** The statements, as this reads them: their id and their spec pointers. */
export interface StatedFields {
  readonly id: string;
  readonly spec: readonly string[];
}

/** The schema a field's value is (`TaskWrapperData.status` → `WrapperStatus`), when it names one. */
export type FieldSchema = (schema: string, field: string) => string | undefined;

/**
 * One shape mutant per (schema, field) the statements point at, each naming the statements it breaks
 * (those pointing at the field, at the whole answer's schema, or at the schema the field's value is)
 * and the shape check that must catch it.
 */
export function fieldTypeMutants(
  statements: readonly StatedFields[],
  fieldSchema: FieldSchema = () => undefined,
): Defect[] {
  const fields = new Map<string, { schema: string; field: string }>();
  for (const pointer of statements.flatMap((s) => s.spec)) {
    const [, schema, field] = POINTER.exec(pointer) ?? [];
    if (schema !== undefined && field !== undefined && SCHEMAS[schema] !== undefined)
      fields.set(`${schema}.${field}`, { schema, field });
  }
  const pointingAt = (pointers: readonly string[]) =>
    statements.filter((s) => s.spec.some((p) => pointers.includes(p))).map((s) => s.id);
  return [...fields.values()].map(({ schema, field }) => {
    const own = fieldSchema(schema, field);
    const ids = pointingAt([
      `/components/schemas/${schema}/properties/${field}`,
      `/components/schemas/${schema}`,
      ...(own === undefined ? [] : [`/components/schemas/${own}`]),
    ]);
    const { operation, check, inData, form } = SCHEMAS[schema]!;
    return {
      name: `field-type:${schema}.${field}`,
      description: `\`${field}\` of ${form} (${schema}) has another JSON type than the spec gives`,
      breaks: [],
      checks: [check],
      statements: ids,
      after: rewriteTaskAnswer([operation], (body) => {
        const holder = inData ? wrapperData(body) : body;
        const changed = otherType(holder[field]);
        if (changed === undefined) return undefined;
        const next = { ...holder, [field]: changed };
        return inData ? { ...body, data: next } : next;
      }),
    };
  });
}

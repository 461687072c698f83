import type { JsonSchema } from '../../../src/spec/index.ts';
import { parseForm } from '../http/multipart.ts';

const NUMBER = /^-?(0|[1-9][0-9]{0,15})(\.[0-9]{1,15})?$/;

/**
 * A `multipart/form-data` submission read as the deployed gateway reads it (the spec's `SubmitForm`,
 * an assumption): the fields `SubmitForm` names become the §2.1 fields of the same name (an array field
 * such as `images` from every part, any other from its first), every other field goes into `metadata`
 * (a value that reads as a number becomes that number), and a file part is refused (§2.1: multipart
 * file upload is not accepted). Returns the JSON-shaped body the usual checks then read, or the problem.
 */
export function formSubmission(
  bytes: Uint8Array,
  contentType: string,
  form: JsonSchema,
): { value: Record<string, unknown> } | { problem: string } {
  const parsed = parseForm(bytes, contentType);
  if ('problem' in parsed) return parsed;
  const fields = (form['properties'] ?? {}) as Record<string, JsonSchema>;
  const value: Record<string, unknown> = {};
  // A Map, then fromEntries: a field named `__proto__` stays an ordinary key.
  const metadata = new Map<string, unknown>();
  for (const part of parsed.parts) {
    if (part.filename !== undefined)
      return {
        problem:
          `the field ${part.name} is a file (${part.filename}): file upload is not ` +
          `accepted (§2.1); send image URLs in image or images`,
      };
    const field = Object.hasOwn(fields, part.name) ? fields[part.name] : undefined;
    if (field === undefined) {
      if (!metadata.has(part.name))
        metadata.set(part.name, NUMBER.test(part.value) ? Number(part.value) : part.value);
    } else if (field['type'] === 'array')
      value[part.name] = [...((value[part.name] as string[] | undefined) ?? []), part.value];
    else value[part.name] ??= part.value;
  }
  if (metadata.size > 0) value['metadata'] = Object.fromEntries(metadata);
  return { value };
}

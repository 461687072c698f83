// How node:http folds repeated request headers: the core layer is fed exactly what node gives it.
import type { IncomingHttpHeaders } from 'node:http';
import { addField } from '../../proxy/head-fields.ts';

/**
 * The headers node:http would give for `list`: names lower-case, the first kept of those node keeps
 * once, the others joined with ", " (cookie with "; "): the proxy's own rule for the answers it reads.
 */
export function nodeHeaders(list: readonly (readonly [string, string])[]): Record<string, string> {
  const headers: IncomingHttpHeaders = Object.create(null) as IncomingHttpHeaders;
  for (const [name, value] of list) addField(headers, name.toLowerCase(), value);
  // fromEntries: a field named __proto__ stays a field.
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.join(', ') : value!,
    ]),
  );
}

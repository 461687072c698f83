import { MAX_JSON_DEPTH } from '../../src/text/json-depth.ts';

/**
 * §1: "The public task ID is the only task identifier exposed. The upstream provider's task number is
 * not exposed." Finds, at any key and depth of a JSON body and in its headers, a value that exposes a
 * task identifier other than the public ID.
 *
 * Numbers are never task identifiers: the gateway's wrapper carries its row number as `data.id` and
 * `user_id`, `channel_id` as numbers. Its `data.data` (the raw upstream body) is where an upstream
 * number like `cgt-…` would leak, so it is searched like everything else.
 */
export interface ForeignIdentifier {
  /** Where it is: `data.data.id`. */
  readonly path: string;
  readonly value: string;
}

/** `id`, `task_id`, `taskId` and any `…_task_id` / `…TaskId`: fields that name a task whatever they hold. */
const TASK_KEY = /^(id|task_?id|taskID|.+_task_id|.+TaskId|upstream_id|upstreamId)$/;
/** Upstream task numbers seen in the wild: Volcengine Ark's `cgt-…`, a whole value or a word of a text. */
const UPSTREAM_NUMBER = /^cgt-[0-9A-Za-z-]+$/;
const UPSTREAM_NUMBER_IN_TEXT = /(?<![0-9A-Za-z-])cgt-[0-9A-Za-z][0-9A-Za-z-]*/;
/** A token without spaces, long and varied enough to be an identifier (a UUID, a hash, a prefixed ID). */
const OPAQUE_TOKEN = /^(?=.*\d)[A-Za-z0-9][A-Za-z0-9_.:-]{15,}$/;

/** The public ID's own form: same prefix (up to the first `_` or `-`) and same length. */
function samePublicForm(value: string, publicId: string): boolean {
  const prefix = /^[A-Za-z]+[_-]/.exec(publicId)?.[0];
  return prefix !== undefined && value.startsWith(prefix) && value.length === publicId.length;
}

/**
 * The task identifier a value exposes, judged by the value wherever it is (issue 31 item 6): the
 * upstream's number, whole or as a word of a text (a message that quotes it exposes it too); another
 * value of the public ID's form; and, under a key that names a task, any opaque token. Undefined when
 * it exposes none.
 */
function exposedIdentifier(key: string, value: string, publicId: string): string | undefined {
  if (value === publicId) return undefined;
  if (UPSTREAM_NUMBER.test(value) || samePublicForm(value, publicId)) return value;
  const quoted = UPSTREAM_NUMBER_IN_TEXT.exec(value)?.[0];
  if (quoted !== undefined) return quoted;
  return TASK_KEY.test(key) && OPAQUE_TOKEN.test(value) ? value : undefined;
}

/**
 * Every value of `body` that exposes a task identifier other than `publicId`, at any key and depth (an
 * array's items included: their key is their index).
 */
export function foreignIdentifiers(body: unknown, publicId: string): ForeignIdentifier[] {
  const found: ForeignIdentifier[] = [];
  const visit = (node: unknown, path: string, depth: number): void => {
    if (depth >= MAX_JSON_DEPTH || node === null || typeof node !== 'object') return;
    const entries = Array.isArray(node)
      ? node.map((value, i) => [String(i), value] as const)
      : Object.entries(node as Record<string, unknown>);
    for (const [key, value] of entries) {
      const where = path === '' ? key : `${path}.${key}`;
      if (typeof value !== 'string') visit(value, where, depth + 1);
      else {
        const exposed = exposedIdentifier(key, value, publicId);
        if (exposed !== undefined) found.push({ path: where, value: exposed });
      }
    }
  };
  visit(body, '', 0);
  return found;
}

/**
 * The headers of an answer that expose a task identifier other than `publicId`: a header is a field of
 * the answer like any other (`X-Upstream-Task-Id: cgt-…`). A header's name is no task key: only the
 * value's form counts, so request IDs and dates are left alone.
 */
export function foreignHeaderIdentifiers(
  headers: Readonly<Record<string, string>>,
  publicId: string,
): ForeignIdentifier[] {
  return Object.entries(headers).flatMap(([name, value]) => {
    const exposed = exposedIdentifier(`header ${name}`, value, publicId);
    return exposed === undefined ? [] : [{ path: `header ${name}`, value: exposed }];
  });
}

/** Where each query form holds the temporary upstream result address: §2.2 and §2.3. */
export const RESULT_ADDRESS = {
  openai: { path: 'metadata.url', parent: 'metadata', field: 'url' },
  wrapper: { path: 'data.result_url', parent: 'data', field: 'result_url' },
} as const;

export type AddressForm = keyof typeof RESULT_ADDRESS;

/** The result address a body of `form` holds: whether the field is there, and its value. */
export function resultAddressOf(
  body: unknown,
  form: AddressForm,
): { readonly present: boolean; readonly value: unknown } {
  const { parent, field } = RESULT_ADDRESS[form];
  const holder =
    body !== null && typeof body === 'object'
      ? (body as Record<string, unknown>)[parent]
      : undefined;
  if (holder === null || typeof holder !== 'object' || !(field in holder))
    return { present: false, value: undefined };
  return { present: true, value: (holder as Record<string, unknown>)[field] };
}

/**
 * Whether a result address value is allowed: an absolute http(s) URL, or, unless the task has
 * completed (`required`), absent-like (`""`, null: the gateway's value while a task runs). A completed
 * task's address is its result (§4.2): an empty string there is no address.
 */
export function isResultAddress(value: unknown, required = false): boolean {
  if (value === '' || value === null || value === undefined) return !required;
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host !== '';
  } catch {
    return false;
  }
}

import { MAX_JSON_DEPTH } from '../../src/client/json-depth.ts';

/**
 * §1: "The public task ID is the only task identifier exposed. The upstream provider's task number is
 * not exposed." Finds, at any depth of a JSON body, a string field that names a task identifier and
 * holds another value than the public ID.
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
/** Other `…_id` / `…Id` fields name a task only when their value has a task identifier's form. */
const ANY_ID_KEY = /(_id|Id|ID)$/;
/** Upstream task numbers seen in the wild: Volcengine Ark's `cgt-…`. */
const UPSTREAM_NUMBER = /^cgt-[0-9A-Za-z-]+$/;
/** A token without spaces, long and varied enough to be an identifier (a UUID, a hash, a prefixed ID). */
const OPAQUE_TOKEN = /^(?=.*\d)[A-Za-z0-9][A-Za-z0-9_.:-]{15,}$/;

/** The public ID's own form: same prefix (up to the first `_` or `-`) and same length. */
function samePublicForm(value: string, publicId: string): boolean {
  const prefix = /^[A-Za-z]+[_-]/.exec(publicId)?.[0];
  return prefix !== undefined && value.startsWith(prefix) && value.length === publicId.length;
}

function looksLikeTaskId(key: string, value: string, publicId: string): boolean {
  if (samePublicForm(value, publicId) || UPSTREAM_NUMBER.test(value)) return true;
  return TASK_KEY.test(key) && OPAQUE_TOKEN.test(value);
}

/** Every field of `body` that exposes a task identifier other than `publicId`. */
export function foreignIdentifiers(body: unknown, publicId: string): ForeignIdentifier[] {
  const found: ForeignIdentifier[] = [];
  const visit = (node: unknown, path: string, depth: number): void => {
    if (depth >= MAX_JSON_DEPTH || node === null || typeof node !== 'object') return;
    const entries = Array.isArray(node)
      ? node.map((value, i) => [String(i), value] as const)
      : Object.entries(node as Record<string, unknown>);
    for (const [key, value] of entries) {
      const where = path === '' ? key : `${path}.${key}`;
      if (typeof value === 'string') {
        const named = TASK_KEY.test(key) || ANY_ID_KEY.test(key);
        if (named && value !== publicId && looksLikeTaskId(key, value, publicId))
          found.push({ path: where, value });
      } else visit(value, where, depth + 1);
    }
  };
  visit(body, '', 0);
  return found;
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

import { MAX_JSON_DEPTH } from '../../../src/text/json-depth.ts';

/**
 * What makes two submissions "the same" for the client verdicts: the same model, prompt and
 * parameters (the body read as fields, keys in any order, JSON or multipart alike) and the same
 * scenario header. Kept as a 53-bit hash, never the body: a caller's memory stays small, and no prompt
 * is kept. A body the mock could not read is hashed as its bytes.
 */
export function submissionFingerprint(
  body: Record<string, unknown> | undefined,
  raw: Uint8Array | undefined,
  scenario: string | undefined,
): number {
  const text = body === undefined ? bytesText(raw) : canonical(body);
  return hash53(scenario === undefined ? text : `${text}\u0000${scenario}`);
}

/**
 * JSON with object keys sorted, so that key order never makes two bodies differ. A value nested past
 * the project's one depth limit is written as a marker: nothing walks a hostile depth (issue 33 item 1).
 */
function canonical(value: unknown, depth = 0): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (depth >= MAX_JSON_DEPTH) return '"\u0002deeper"';
  const inner = (item: unknown) => canonical(item, depth + 1);
  if (Array.isArray(value)) return `[${value.map(inner).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${inner(record[k])}`).join(',')}}`;
}

const latin1 = new TextDecoder('latin1');

function bytesText(raw: Uint8Array | undefined): string {
  return raw === undefined || raw.byteLength === 0 ? '' : `\u0001${latin1.decode(raw)}`;
}

/**
 * cyrb53, a fast 53-bit string hash: not cryptographic; two of a caller's ~1,000 remembered bodies
 * collide about once in 10^10.
 */
export function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

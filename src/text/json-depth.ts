/**
 * How deep a JSON answer may nest. No answer of the service nests more than a few levels; code that
 * walks a value recursively (`JSON.stringify`, a validator, a redacted copy) exhausts the stack on a
 * deep one: 100,000 nested arrays crashed the contract runner (issue 24 item 8). Answers nesting
 * deeper are refused before they are parsed, by the client and the contract runner alike.
 */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = new Set([0x5b, 0x7b]); // [ {
const CLOSE = new Set([0x5d, 0x7d]); // ] }

/**
 * Follows JSON text as UTF-8 bytes, chunk by chunk, in one pass (brackets inside strings do not count),
 * and tells when its nesting goes past `limit`. Text that is not JSON is followed just as well: only
 * the depth is judged.
 */
export class JsonDepth {
  #depth = 0;
  #inString = false;
  #escaped = false;

  constructor(readonly limit = MAX_JSON_DEPTH) {}

  /** Reads `bytes`; false once the text has nested deeper than the limit. */
  feed(bytes: Uint8Array): boolean {
    for (const byte of bytes) {
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false;
        else if (byte === BACKSLASH) this.#escaped = true;
        else if (byte === QUOTE) this.#inString = false;
      } else if (byte === QUOTE) this.#inString = true;
      else if (OPEN.has(byte)) {
        if (++this.#depth > this.limit) return false;
      } else if (CLOSE.has(byte) && this.#depth > 0) this.#depth--;
    }
    return true;
  }
}

/** Whether the JSON text in `bytes` nests deeper than `limit`. */
export function nestsTooDeep(bytes: Uint8Array, limit = MAX_JSON_DEPTH): boolean {
  return !new JsonDepth(limit).feed(bytes);
}

import { maskKey } from '../src/client/mask.ts';
import { printable } from '../src/client/printable.ts';

/**
 * The one redaction every output of a contract run goes through (summary, progress, errors, the JSON and
 * JUnit reports): each key the run holds is masked (`sk-…abcd`) in whatever form a server echoed it —
 * as is, upper- or lower-cased, percent-encoded (once or twice, any hex case, whole or in part),
 * JSON-escaped (`\u0073`, `\/`), or inside base64 text (standard or URL-safe, at any alignment) — and so
 * is any bearer token and the user information of any URL (`https://user:pw@host`).
 */
export class Redactor {
  readonly #keys: readonly string[];
  readonly #base64: readonly { readonly pattern: RegExp; readonly mask: string }[];

  constructor(keys: readonly (string | undefined)[]) {
    this.#keys = [...new Set(keys.filter((k): k is string => k !== undefined && k.length >= 4))];
    this.#base64 = this.#keys.flatMap((key) =>
      base64Cores(key).map((core) => ({
        pattern: new RegExp(escapeRegExp(core), 'gi'),
        mask: maskKey(key),
      })),
    );
  }

  /** `text` with every echo of a key masked. */
  redact(text: string): string {
    let out = text;
    for (const key of this.#keys) out = maskEchoes(out, key);
    // A function, not a string: a mask may hold `$&` and the like.
    for (const { pattern, mask } of this.#base64) out = out.replace(pattern, () => mask);
    const bearers = out.replace(
      BEARER,
      (_m, prefix: string, token: string) => `${prefix}${maskKey(token)}`,
    );
    return withoutUserinfo(bearers);
  }

  /** Redacted and safe for a terminal (control characters shown as `\uXXXX`, never acting). */
  forTerminal(text: string): string {
    return printable(this.redact(text));
  }

  /** A copy of a JSON-like value with every string redacted (getters are read). */
  redactDeep<T>(value: T): T {
    return JSON.parse(this.redact(JSON.stringify(value))) as T;
  }
}

/** A bearer token; not an authentication challenge's parameters (`Bearer realm="api"`, RFC 6750 §3). */
const BEARER = /(Bearer\s+)(?![A-Za-z_-]+=")([A-Za-z0-9._~+/=-]{6,})/gi;

const SCHEME_CHAR = /[a-z0-9+.-]/i;
const NOT_USERINFO = /[\s/?#@"'<>]/;

/**
 * `scheme://user:pw@host` → `scheme://…@host`, in one pass from each `://` (a backtracking pattern
 * was quadratic in the text's length: test/regressions/prompt-tag-linear-time.test.ts).
 */
function withoutUserinfo(text: string): string {
  let out = '';
  let copied = 0;
  for (let at = text.indexOf('://'); at >= 0; at = text.indexOf('://', at + 3)) {
    let scheme = at;
    while (scheme > copied && SCHEME_CHAR.test(text[scheme - 1]!)) scheme--;
    while (scheme < at && !/[a-z]/i.test(text[scheme]!)) scheme++; // a scheme starts with a letter
    if (scheme === at) continue;
    let end = at + 3;
    while (end < text.length && !NOT_USERINFO.test(text[end]!)) end++;
    if (end === at + 3 || text[end] !== '@') continue;
    out += `${text.slice(copied, at + 3)}…`;
    copied = end;
  }
  return out + text.slice(copied);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** One character of a key in every encoding an echo may give it. */
function charForms(char: string): string {
  const code = char.charCodeAt(0);
  const hex = code.toString(16).padStart(2, '0');
  const forms = [
    escapeRegExp(char),
    `%${hex}`, // percent-encoded
    `%25${hex}`, // percent-encoded twice
    `\\\\u00${hex}`, // JSON \u escape
    `\\\\${escapeRegExp(char)}`, // JSON backslash escape (\/ \" \\)
    `%5c${escapeRegExp(char)}`, // a JSON backslash escape, percent-encoded
    `%5cu00${hex}`,
  ];
  return `(?:${forms.join('|')})`;
}

const echoPatterns = new Map<string, RegExp>();

/** Masks `key` in `text` in any mix of the encodings `charForms` knows, case-insensitively. */
function maskEchoes(text: string, key: string): string {
  let pattern = echoPatterns.get(key);
  if (pattern === undefined) {
    pattern = new RegExp([...key].map(charForms).join(''), 'gi');
    echoPatterns.set(key, pattern);
  }
  const mask = maskKey(key);
  return text.replace(pattern, () => mask);
}

const encoder = new TextEncoder();
const toBase64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/**
 * The part of the base64 text of a longer string that depends only on `key`, for each of the three
 * alignments the key can start at, in standard and URL-safe alphabets (and the key's upper- and
 * lower-cased forms). Cores shorter than 8 characters are left out: too short to tell from noise.
 */
function base64Cores(key: string): string[] {
  const cores = new Set<string>();
  for (const form of new Set([key, key.toLowerCase(), key.toUpperCase()])) {
    const bytes = encoder.encode(form);
    for (let align = 0; align < 3; align++) {
      const padded = new Uint8Array(align + bytes.length);
      padded.set(bytes, align);
      const first = align === 0 ? 0 : 3; // the group holding foreign bytes is left out
      const last = Math.floor(padded.length / 3) * 3;
      if (last - first < 6) continue;
      const core = toBase64(padded.subarray(first, last));
      if (core.length < 8) continue;
      cores.add(core);
      cores.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  }
  return [...cores];
}

import { MAX_JSON_DEPTH } from '../text/json-depth.ts';
import { printable } from '../text/printable.ts';
import {
  BASE32,
  BASE64,
  HEX,
  LOWER_BASE32,
  NestedBytes,
  charsFor,
  decodeGroups,
  decodeNumberLists,
} from './byte-readings.ts';
import { KeyParts, type KeyPart } from './key-parts.ts';
import { STRIDES, pushStrided, renderedReading } from './layout-readings.ts';
import type { Reading } from './reading.ts';
import { decodedReadings, plainReading } from './text-readings.ts';

/**
 * How a key may appear wherever a person reads (output, reports, records, logs, errors): `sk-…abcd`.
 * A short key shows less, so that most of it stays hidden: from 16 characters the first 3 and the last
 * 4, from 10 the first 3 and the last 2 (`sk-…ab`), below that nothing (`***`). A character shown is
 * a letter, a digit, `-`, `_` or `.`, else `*`: a mask is safe in JSON, XML, Markdown and a terminal.
 */
export function maskKey(key: string): string {
  const shown = (text: string) => text.replace(/[^A-Za-z0-9._-]/g, '*');
  if (key.length >= 16) return `${shown(key.slice(0, 3))}…${shown(key.slice(-4))}`;
  if (key.length >= 10) return `${shown(key.slice(0, 3))}…${shown(key.slice(-2))}`;
  return '***';
}

/**
 * A part of a key this long (or the whole key, if shorter) is masked wherever it is found. Twelve
 * characters of a random key never occur by chance (one place in about 2⁷⁰), and the words a person
 * may put in a key (`sk-team-contract-…`) are shorter, so ordinary text is not masked by mistake; at
 * most 11 characters of a key can show, which tells little about a key of 32 or more
 * (decisions/024-one-redaction.md).
 */
export const KEY_PART = 12;
/** Keys shorter than this are not searched for (every word would hold them); they are still masked as `***`. */
export const SHORTEST_KEY = 4;
/**
 * How many texts a Redactor remembers its answer for, and up to what length: a contract report
 * redacts the same names, states and verdicts thousands of times (6,000 texts a run, a tenth of them
 * different): a quarter less CPU for a whole in-process contract run. At most about 4 MiB, whatever
 * the redactor reads in its life; other texts are read each time.
 */
const REMEMBERED_TEXTS = 4096;
const REMEMBERED_LENGTH = 256;

/**
 * The project's one redaction: every command, report, record file and log line goes through it. Each
 * key it holds is masked (`maskKey`) wherever the text spells a part of it of `KEY_PART` characters or
 * more (the whole key if shorter), in the forms a server may echo it: any case, fullwidth, with
 * invisible characters or line breaks inserted, percent-, backslash- (octal too), HTML-, CSS- or
 * quoted-printable-escaped (nested too), in base64 (standard or URL-safe, wrapped or not, at any
 * alignment), base32, hex or a list of byte values (`[115,107,…]`), or in what those decode to once
 * more (base64 of base64, of hex …), spread out by separators (`s-k-…`) or split by markup
 * (`sk-<b></b>…`). docs/contracts.md lists exactly what is covered and what is not (decisions/024,
 * 048). So is any bearer token and the user information of any URL (`https://user:pw@host`). Linear
 * in the text's length.
 *
 * @example
 * new Redactor(['sk-live-0123456789abcdef']).redact('echo c2stbGl2ZS0wMTIzNDU2Nzg5YWJjZGVm');
 * // 'echo sk-…cdef'
 */
export class Redactor {
  readonly #keys: readonly string[];
  readonly #masks: readonly string[];
  readonly #parts: KeyParts;
  /** The fewest characters of any key that are masked (`KEY_PART`, or a shorter key's length). */
  readonly #shortest: number;
  /** `redact`'s answers by text, for the texts it met first (`REMEMBERED_TEXTS`): its keys never change. */
  readonly #answers = new Map<string, string>();

  constructor(keys: readonly (string | undefined)[]) {
    this.#keys = [
      ...new Set(keys.filter((k): k is string => k !== undefined && k.length >= SHORTEST_KEY)),
    ];
    const shortest = (key: string) => Math.min(key.length, KEY_PART);
    const forms = this.#keys.flatMap((key) => spellings(key).map((form) => ({ form, key })));
    this.#parts = new KeyParts(
      forms.map((f) => f.form),
      shortest,
    );
    this.#masks = forms.map((f) => maskKey(f.key));
    this.#shortest = Math.min(...forms.map((f) => shortest(f.form)));
  }

  /** `text` with every echo of a key, every bearer token and every URL's user information masked. */
  redact(text: string): string {
    const known = this.#answers.get(text);
    if (known !== undefined) return known;
    const masked = this.#keys.length === 0 ? text : this.#maskKeys(text);
    const answer = withoutUserinfo(
      masked.replace(BEARER, (_m, prefix: string, token: string) => prefix + maskKey(token)),
    );
    if (this.#answers.size < REMEMBERED_TEXTS && text.length <= REMEMBERED_LENGTH)
      this.#answers.set(text, answer);
    return answer;
  }

  /** Redacted and safe for a terminal (control characters shown as `\uXXXX`, never acting). */
  forTerminal(text: string): string {
    return printable(this.redact(text));
  }

  /**
   * A JSON-like copy of `value` with every string (and property name) redacted, as `JSON.stringify`
   * would see it (getters read, `toJSON` called, functions and `undefined` left out). Nesting deeper
   * than `MAX_JSON_DEPTH` is replaced by a note, so a hostile body cannot exhaust the stack.
   */
  redactDeep<T>(value: T): T {
    return this.#copy(value, 0) as T;
  }

  #copy(value: unknown, depth: number): unknown {
    if (typeof value === 'string') return this.redact(value);
    if (value === null || typeof value !== 'object') return value;
    if (depth >= MAX_JSON_DEPTH) return `[nested deeper than ${MAX_JSON_DEPTH} levels: left out]`;
    const json = (value as { toJSON?: unknown }).toJSON;
    if (typeof json === 'function') return this.#copy(json.call(value) as unknown, depth);
    if (Array.isArray(value))
      return value.map((item: unknown) => {
        const copied = this.#copy(item, depth + 1);
        return copied === undefined || typeof copied === 'function' ? null : copied;
      });
    const out: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(value)) {
      const copied = this.#copy(item, depth + 1);
      if (copied === undefined || typeof copied === 'function') continue;
      // Defined, not assigned: a `__proto__` key stays a key (as JSON.parse makes it), never a prototype.
      Object.defineProperty(out, this.redact(name), {
        value: copied,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }

  /**
   * Whether `text` spells a part of a key (`KEY_PART` characters or more, the whole key if shorter) in
   * any of the forms `redact` masks: what a caller that must never keep a key asks (a learned profile).
   */
  holdsKey(text: string): boolean {
    return this.#keys.length > 0 && this.#keyParts(text).length > 0;
  }

  #maskKeys(text: string): string {
    const spans = this.#keyParts(text);
    return spans.length === 0 ? text : replaceSpans(text, spans, this.#masks);
  }

  /** Where `text` spells parts of keys, in every reading of it (decisions/024, decisions/048). */
  #keyParts(text: string): KeyPart[] {
    const spans: KeyPart[] = [];
    // Every reading of ASCII text is at most as long as the text: too short to hold a part of a key.
    if (text.length < this.#shortest && ASCII.test(text)) return spans;
    const found = (part: KeyPart) => spans.push(part);
    const plain = plainReading(text);
    const decoded = ESCAPES.test(text) ? decodedReadings(plain, 'c') : [];
    const styled = CSS_OR_QUOTED_PRINTABLE.test(text) ? decodedReadings(plain, 'css') : [];
    for (const reading of [plain, ...decoded, ...styled]) this.#parts.find(reading, found);
    // The rest is read in the text as it is and as it decodes in full: decoding `%21` before `2121…`
    // cuts the hex of a key of `!`s short (test/redaction/redaction-hex-after-percent.test.ts).
    for (const reading of new Set([plain, decoded.at(-1) ?? plain, styled.at(-1) ?? plain]))
      this.#findBeyondEscapes(reading, found);
    return spans;
  }

  /**
   * Parts of keys in `reading` once markup is taken out, in its characters spread out by separators,
   * and in the bytes its runs of base64, base32, hex and byte lists decode to, once or twice.
   */
  #findBeyondEscapes(reading: Reading, found: (part: KeyPart) => void): void {
    const rendered = renderedReading(reading);
    if (rendered !== undefined) this.#parts.find(rendered, found);
    const shortest = this.#shortest;
    // Too short for any of these to spell `shortest` characters (base64 takes the fewest: 4 for 3):
    // a short line, the most common text, pays for none of them.
    if (reading.length < charsFor(BASE64, shortest)) return;
    const scan = this.#parts.scan(found);
    for (const stride of STRIDES)
      if (reading.length > stride * (shortest - 1)) pushStrided(reading, stride, scan);
    // Base32 is read once (nobody nests it); base64, hex and byte lists once and twice.
    for (const code of [BASE32, LOWER_BASE32])
      decodeGroups(reading, code, charsFor(code, shortest), scan);
    const bytes = new NestedBytes(scan, shortest);
    for (const code of [BASE64, HEX]) decodeGroups(reading, code, charsFor(code, shortest), bytes);
    decodeNumberLists(reading, 10, bytes);
    decodeNumberLists(reading, 16, bytes);
    bytes.end();
    scan.end();
  }
}

const ASCII = /^[\x00-\x7f]*$/;

/**
 * A key as itself, percent-encoded, and as what its own escape-like parts decode to (`%00`, `\"`,
 * `&amp;` in a key):
 * the text's decoded readings decode them as well, so a key echoed inside a JSON string whose other
 * characters are percent-escapes is found in the reading that decodes both.
 */
function spellings(key: string): string[] {
  const forms = [key];
  // Its percent-encoded spellings (a URL's, a form's), looked for in the text as it is: decoding
  // takes a `%` just before them with their first two characters for an escape (`%` + `00…`).
  for (const encoded of [
    encodeURIComponent(key),
    new URLSearchParams({ k: key }).toString().slice(2),
  ])
    if (!forms.includes(encoded)) forms.push(encoded);
  if (!ESCAPES.test(key)) return forms;
  for (const reading of decodedReadings(plainReading(key))) {
    const codes = Array.from(reading.codes.subarray(0, reading.length));
    if (codes.some((code) => code < 0)) continue;
    const form = String.fromCodePoint(...codes);
    if (form.length >= SHORTEST_KEY && !forms.includes(form)) forms.push(form);
  }
  return forms;
}

/** A character that may start an escape, as is or fullwidth: without one, there is nothing to decode. */
const ESCAPES = /[%\\&％＼＆]/;
/** What may start a CSS escape (`\\73`) or a quoted-printable one (`=73`, `=` at a line's end). */
const CSS_OR_QUOTED_PRINTABLE = /[\\＼][0-9A-Fa-f]|=(?:[0-9A-F]{2}|\s)/;

/** `text` with each span (overlapping ones merged) replaced by the mask of its key. */
function replaceSpans(text: string, spans: KeyPart[], masks: readonly string[]): string {
  spans.sort((a, b) => a.from - b.from);
  let out = '';
  let copied = 0;
  for (let i = 0; i < spans.length;) {
    const { from, key } = spans[i]!;
    let to = spans[i]!.to;
    for (i++; i < spans.length && spans[i]!.from < to; i++) to = Math.max(to, spans[i]!.to);
    out += text.slice(copied, from) + masks[key]!;
    copied = to;
  }
  return out + text.slice(copied);
}

/** A bearer token; not an authentication challenge's parameters (`Bearer realm="api"`, RFC 6750 §3). */
const BEARER = /(Bearer\s+)(?![A-Za-z_-]+=")([A-Za-z0-9._~+/=-]{6,})/gi;

const SCHEME_CHAR = /[a-z0-9+.-]/i;
const NOT_USERINFO = /[\s/?#@"'<>]/;

/**
 * `scheme://user:pw@host` → `scheme://…@host`, in one pass from each `://` (a backtracking pattern
 * was quadratic in the text's length: test/mocks/prompt-tag-linear-time.e2e.test.ts).
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

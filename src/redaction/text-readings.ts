/**
 * Readings of an untrusted text, for finding a key however it was echoed: the text with what hides a
 * key from a plain search taken away. Each reading is a sequence of characters, each remembering the
 * span of the original text it came from, so that what is found in a reading is masked in the text.
 *
 * - `plainReading`: invisible characters dropped (zero-width and other format characters, soft hyphens,
 *   whitespace and line breaks, controls, combining marks), compatibility forms folded (fullwidth
 *   `ｓｋ－` → `sk-`, NFKC for the rest).
 * - `decodedReadings`: the plain reading with escapes decoded, repeatedly (nested encodings): percent
 *   (`%73`, `%2573`, `%u0073`), backslash (`\u0073`, `\u{73}`, `\x73`, `\/`, `\n`), HTML character
 *   references (`&#115;`, `&#x73;`, `&amp;`, `&hyphen;`, `&shy;`).
 * - `decodeBase64`, `decodeHex`: the bytes that runs of base64 (standard or URL-safe, line-wrapped or
 *   not, at each of the 4 alignments) or of hex digits (either case, at both alignments) decode to,
 *   pushed to a search as they are decoded (a megabyte of base64 is never stored three times over).
 *
 * Every reading is built in one pass over its input (a few passes in all, none backtracking): linear in
 * the text's length whatever it holds.
 */

/** A code that never matches: between runs that must not be read as one. */
export const BREAK = -1;

/** Takes characters as a decoder produces them: a reading being built, or a search. */
export interface CharSink {
  push(code: number, from: number, to: number): void;
}

export interface Reading {
  /** Character codes (code points, or byte values in a decoded reading); `BREAK` between runs. */
  readonly codes: Int32Array;
  /** `from[i]`..`to[i]`: the span of the original text character `i` came from. */
  readonly from: Int32Array;
  readonly to: Int32Array;
  readonly length: number;
}

/** Appends characters and their spans, growing its arrays as needed. */
class ReadingBuilder implements Reading, CharSink {
  codes: Int32Array;
  from: Int32Array;
  to: Int32Array;
  length = 0;

  constructor(capacity: number) {
    const size = Math.max(16, capacity);
    this.codes = new Int32Array(size);
    this.from = new Int32Array(size);
    this.to = new Int32Array(size);
  }

  push(code: number, from: number, to: number): void {
    if (this.length === this.codes.length) this.#grow();
    this.codes[this.length] = code;
    this.from[this.length] = from;
    this.to[this.length] = to;
    this.length++;
  }

  /** Pushes `code` folded: nothing when it is invisible, one or more characters otherwise. */
  pushFolded(code: number, from: number, to: number): void {
    if (code >= 0x21 && code <= 0x7e) return this.push(code, from, to);
    for (const folded of foldCode(code)) this.push(folded, from, to);
  }

  #grow(): void {
    const grown = (array: Int32Array) => {
      const bigger = new Int32Array(array.length * 2);
      bigger.set(array);
      return bigger;
    };
    this.codes = grown(this.codes);
    this.from = grown(this.from);
    this.to = grown(this.to);
  }
}

const INVISIBLE = /^[\p{Cc}\p{Cf}\p{Z}\p{M}\s]$/u;
const NOTHING: readonly number[] = [];
const folds = new Map<number, readonly number[]>();

/**
 * What one character reads as: nothing when it is invisible or spacing (a key holds neither), its
 * ASCII form when it has one (fullwidth `ｓ`, mathematical `𝐬`, circled `ⓢ` … through NFKC), else itself.
 */
function foldCode(code: number): readonly number[] {
  if (code >= 0x21 && code <= 0x7e) return [code];
  if (code < 0x21 || code === 0x7f) return NOTHING;
  let folded = folds.get(code);
  if (folded === undefined) {
    const char = String.fromCodePoint(code);
    if (INVISIBLE.test(char)) folded = NOTHING;
    else {
      const compatible = char.normalize('NFKC');
      folded = /^[\x21-\x7e]+$/.test(compatible)
        ? [...compatible].map((c) => c.charCodeAt(0))
        : [code];
    }
    // Bounded: a text may hold every code point there is; the common ones are remembered.
    if (folds.size < 4096) folds.set(code, folded);
  }
  return folded;
}

/** The text with invisible characters dropped and compatibility forms folded; nothing decoded. */
export function plainReading(text: string): Reading {
  const out = new ReadingBuilder(text.length);
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0x21 && unit <= 0x7e) out.push(unit, i, i + 1);
    else {
      const code = text.codePointAt(i)!;
      const end = code > 0xffff ? i + 2 : i + 1;
      out.pushFolded(code, i, end);
      i = end - 1;
    }
  }
  return out;
}

/**
 * The plain reading with its escapes decoded, pass after pass while a pass decodes something (at most
 * 4): each pass's reading, the last one fully decoded. Each is searched: a key that itself holds an
 * escape-like part (`%25`) shows in one pass and is decoded away by the next.
 */
export function decodedReadings(plain: Reading): Reading[] {
  const readings: Reading[] = [];
  let reading = plain;
  for (let pass = 0; pass < 4; pass++) {
    const next = decodeOnce(reading);
    if (next === undefined) break;
    readings.push(next);
    reading = next;
  }
  return readings;
}

/** One pass of escape decoding; undefined when the reading holds no escape. */
function decodeOnce(reading: Reading): Reading | undefined {
  const { codes, from, to, length } = reading;
  const out = new ReadingBuilder(length);
  let decoded = false;
  for (let i = 0; i < length; i++) {
    const escape = escapeAt(codes, i, length);
    if (escape === undefined) {
      out.push(codes[i]!, from[i]!, to[i]!);
      continue;
    }
    decoded = true;
    const last = i + escape.width - 1;
    if (escape.code !== undefined) out.pushFolded(escape.code, from[i]!, to[last]!);
    i = last;
  }
  return decoded ? out : undefined;
}

/** An escape at `i`: how many characters it takes and the code it stands for (none: it stands for spacing). */
interface Escape {
  readonly width: number;
  readonly code: number | undefined;
}

const PERCENT = 0x25;
const BACKSLASH = 0x5c;
const AMPERSAND = 0x26;

function escapeAt(codes: Int32Array, i: number, length: number): Escape | undefined {
  const code = codes[i];
  if (code === PERCENT) return percentEscape(codes, i, length);
  if (code === BACKSLASH) return backslashEscape(codes, i, length);
  if (code === AMPERSAND) return characterReference(codes, i, length);
  return undefined;
}

/** The value of `count` hex digits at `at`, or undefined. */
function hexAt(codes: Int32Array, at: number, count: number, length: number): number | undefined {
  if (at + count > length) return undefined;
  let value = 0;
  for (let k = at; k < at + count; k++) {
    const digit = hexDigit(codes[k]!);
    if (digit < 0) return undefined;
    value = value * 16 + digit;
  }
  return value;
}

function hexDigit(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

const isAlphanumeric = (code: number) =>
  (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a);

/** `%73`, and `%u0073` (the non-standard form some servers still write). */
function percentEscape(codes: Int32Array, i: number, length: number): Escape | undefined {
  const byte = hexAt(codes, i + 1, 2, length);
  if (byte !== undefined) return { width: 3, code: byte };
  if ((codes[i + 1]! | 0x20) !== 0x75) return undefined;
  const unit = hexAt(codes, i + 2, 4, length);
  return unit === undefined ? undefined : { width: 6, code: unit };
}

/** Spacing escapes: `\n`, `\r`, `\t`, `\b`, `\f`, `\v`, `\0`. */
const SPACING_ESCAPES = new Set([0x6e, 0x72, 0x74, 0x62, 0x66, 0x76, 0x30]);

/** `\u0073`, `\u{73}`, `\x73`, a spacing escape, or a backslash before punctuation (`\/`, `\"`, `\\`). */
function backslashEscape(codes: Int32Array, i: number, length: number): Escape | undefined {
  const next = codes[i + 1];
  if (next === undefined || i + 1 >= length) return undefined;
  if (next === 0x75) {
    if (codes[i + 2] === 0x7b) return bracedEscape(codes, i, length);
    const unit = hexAt(codes, i + 2, 4, length);
    return unit === undefined ? undefined : { width: 6, code: unit };
  }
  if (next === 0x78) {
    const byte = hexAt(codes, i + 2, 2, length);
    return byte === undefined ? undefined : { width: 4, code: byte };
  }
  if (SPACING_ESCAPES.has(next)) return { width: 2, code: undefined };
  if (next >= 0x21 && next <= 0x7e && !isAlphanumeric(next)) return { width: 2, code: next };
  return undefined;
}

/** `\u{73}`: one to six hex digits in braces. */
function bracedEscape(codes: Int32Array, i: number, length: number): Escape | undefined {
  let value = 0;
  for (let k = i + 3; k < Math.min(length, i + 10); k++) {
    if (codes[k] === 0x7d)
      return k === i + 3 || value > 0x10ffff ? undefined : { width: k - i + 1, code: value };
    const digit = hexDigit(codes[k]!);
    if (digit < 0) return undefined;
    value = value * 16 + digit;
  }
  return undefined;
}

/** HTML's named references for the characters a key may hold, and for invisible ones. */
const NAMED: Readonly<Record<string, number | undefined>> = {
  amp: 0x26,
  lt: 0x3c,
  gt: 0x3e,
  quot: 0x22,
  apos: 0x27,
  hyphen: 0x2d,
  dash: 0x2d,
  minus: 0x2d,
  lowbar: 0x5f,
  UnderBar: 0x5f,
  period: 0x2e,
  plus: 0x2b,
  sol: 0x2f,
  bsol: 0x5c,
  equals: 0x3d,
  colon: 0x3a,
  semi: 0x3b,
  comma: 0x2c,
  num: 0x23,
  percnt: 0x25,
  dollar: 0x24,
  commat: 0x40,
  excl: 0x21,
  quest: 0x3f,
  ast: 0x2a,
  lpar: 0x28,
  rpar: 0x29,
  lsqb: 0x5b,
  rsqb: 0x5d,
  lcub: 0x7b,
  rcub: 0x7d,
  verbar: 0x7c,
  vert: 0x7c,
  Hat: 0x5e,
  grave: 0x60,
  tilde: 0x7e,
  nbsp: 0xa0,
  shy: 0xad,
  ZeroWidthSpace: 0x200b,
  NoBreak: 0x2060,
  zwnj: 0x200c,
  zwj: 0x200d,
};
const LONGEST_NAME = 16;

/** `&#115;`, `&#x73;` (the `;` may be left out, as browsers allow), `&amp;`, `&hyphen;` … */
function characterReference(codes: Int32Array, i: number, length: number): Escape | undefined {
  if (codes[i + 1] === 0x23) return numericReference(codes, i, length);
  let name = '';
  for (let k = i + 1; k < Math.min(length, i + 2 + LONGEST_NAME); k++) {
    const code = codes[k]!;
    if (code === 0x3b) {
      const value = Object.hasOwn(NAMED, name) ? NAMED[name] : undefined;
      return value === undefined ? undefined : { width: k - i + 1, code: value };
    }
    if (!isAlphanumeric(code)) return undefined;
    name += String.fromCharCode(code);
  }
  return undefined;
}

function numericReference(codes: Int32Array, i: number, length: number): Escape | undefined {
  const hex = (codes[i + 2]! | 0x20) === 0x78;
  const first = hex ? i + 3 : i + 2;
  let value = 0;
  let k = first;
  for (; k < Math.min(length, first + 8); k++) {
    const digit = hex ? hexDigit(codes[k]!) : codes[k]! - 0x30;
    if (digit < 0 || digit > (hex ? 15 : 9)) break;
    value = value * (hex ? 16 : 10) + digit;
  }
  if (k === first || value > 0x10ffff) return undefined;
  const width = (codes[k] === 0x3b && k < length ? k + 1 : k) - i;
  return { width, code: value };
}

/** Base64's value of each ASCII character, standard and URL-safe alphabets alike; -1 for any other. */
const SEXTETS = (() => {
  const table = new Int8Array(128).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < 64; i++) table[alphabet.charCodeAt(i)] = i;
  table[0x2d] = 62; // `-`, URL-safe
  table[0x5f] = 63; // `_`, URL-safe
  return table;
})();
/** The value of each ASCII hex digit, either case; -1 for any other character. */
const HEX_DIGITS = (() => {
  const table = new Int8Array(128).fill(-1);
  for (let code = 0; code < 128; code++) table[code] = hexDigit(code);
  return table;
})();

/**
 * Pushes into `out` the bytes each run of base64 characters decodes to, at each of the 4 alignments (a
 * run may begin with text that is not base64: `key=c2stc2…`), a `BREAK` after each. Runs shorter than
 * `shortest` characters are left out. Each byte's span is its group of 4 characters; NUL bytes are
 * dropped (so UTF-16 text reads as ASCII).
 */
export function decodeBase64(reading: Reading, shortest: number, out: CharSink): void {
  const { codes, from, to } = reading;
  forEachRun(reading, SEXTETS, shortest, (start, end) => {
    for (let align = 0; align < 4; align++) {
      for (let group = start + align; group + 1 < end; group += 4) {
        const last = Math.min(group + 4, end);
        let bits = 0;
        for (let k = group; k < last; k++) bits = (bits << 6) | SEXTETS[codes[k]!]!;
        const spanFrom = from[group]!;
        const spanTo = to[last - 1]!;
        for (let count = (last - group) * 6; count >= 8; count -= 8) {
          const byte = (bits >> (count - 8)) & 0xff;
          if (byte !== 0) out.push(byte, spanFrom, spanTo);
        }
      }
      out.push(BREAK, 0, 0);
    }
  });
}

/** Pushes into `out` the bytes each run of hex digits decodes to, at both alignments (as above). */
export function decodeHex(reading: Reading, shortest: number, out: CharSink): void {
  const { codes, from, to } = reading;
  forEachRun(reading, HEX_DIGITS, shortest, (start, end) => {
    for (let align = 0; align < 2; align++) {
      for (let k = start + align; k + 1 < end; k += 2) {
        const byte = HEX_DIGITS[codes[k]!]! * 16 + HEX_DIGITS[codes[k + 1]!]!;
        if (byte !== 0) out.push(byte, from[k]!, to[k + 1]!);
      }
      out.push(BREAK, 0, 0);
    }
  });
}

/** Calls `run(start, end)` for each maximal run of characters with a value in `values`, at least `shortest` long. */
function forEachRun(
  reading: Reading,
  values: Int8Array,
  shortest: number,
  run: (start: number, end: number) => void,
): void {
  const { codes, length } = reading;
  let start = -1;
  for (let i = 0; i <= length; i++) {
    const code = i < length ? codes[i]! : -1;
    const inside = code >= 0 && code < 128 && values[code]! >= 0;
    if (inside && start < 0) start = i;
    else if (!inside && start >= 0) {
      if (i - start >= shortest) run(start, i);
      start = -1;
    }
  }
}

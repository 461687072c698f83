import {
  BREAK,
  HEX_DIGITS,
  ReadingBuilder,
  alphabet,
  hexDigit as digitOf,
  type CharSink,
  type Reading,
} from './reading.ts';

/**
 * The bytes a text's runs of encoded data decode to, pushed to a search as they are decoded (a
 * megabyte of base64 is never stored three times over): base64 (standard or URL-safe, wrapped or not,
 * at each of its 4 alignments), base32 (RFC 4648, upper or lower case, at each of 8), hex (either case, spaced,
 * at both alignments) and lists of byte values (`[115,107,…]` of Node's Buffer JSON, Go's
 * `[115 107 …]`, Java's and Python's `[115, 107, …]`, and the same in hex: `[73, 6b, …]`,
 * `0x73, 0x6b`). Each byte's span is the characters it was decoded from; NUL bytes are dropped (so
 * UTF-16 reads as ASCII); a `BREAK` follows each run (and each alignment of it). `NestedBytes` decodes
 * what these decode to once more (base64 of base64, base64 of hex, hex of base64 …).
 *
 * Each is one pass per alignment over its input: linear in the text's length, whatever it holds.
 */

/** Read once (an imported binding may be a getter): read for every byte or character. */
const RUN_END = BREAK;
const HEX_VALUES = HEX_DIGITS;
const hexDigit = digitOf;

/** Standard and URL-safe (`-`, `_`) base64 alike. */
const SEXTETS = alphabet('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');
SEXTETS[0x2d] = 62;
SEXTETS[0x5f] = 63;
/**
 * Base32 in upper case and in lower case, each its own alphabet: an encoder writes one case, so a run
 * of mixed case (base64, most prose) is not base32 and is not decoded as such.
 */
const QUINTETS = alphabet('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567');
const LOWER_QUINTETS = alphabet('abcdefghijklmnopqrstuvwxyz234567');

/** An encoding of bytes in groups of characters: `group` characters of `bits` each. */
interface GroupCode {
  readonly values: Int8Array;
  readonly bits: number;
  readonly group: number;
}

export const BASE64: GroupCode = { values: SEXTETS, bits: 6, group: 4 };
export const BASE32: GroupCode = { values: QUINTETS, bits: 5, group: 8 };
export const LOWER_BASE32: GroupCode = { values: LOWER_QUINTETS, bits: 5, group: 8 };
export const HEX: GroupCode = { values: HEX_VALUES, bits: 4, group: 2 };

/** The fewest characters of `code` that `bytes` bytes take. */
export const charsFor = (code: GroupCode, bytes: number) => Math.ceil((bytes * 8) / code.bits);

/**
 * Pushes into `out` the bytes each run of `code`'s characters decodes to, at each alignment (a run may
 * begin with text that is not part of the encoding: `key=c2stc2…`), a `BREAK` after each. Runs shorter
 * than `shortest` characters are left out. Each byte's span is its group of characters.
 */
export function decodeGroups(
  reading: Reading,
  code: GroupCode,
  shortest: number,
  out: CharSink,
): void {
  const { codes, length } = reading;
  const { values } = code;
  let start = -1;
  for (let i = 0; i <= length; i++) {
    const c = i < length ? codes[i]! : -1;
    const inside = c >= 0 && c < 128 && values[c]! >= 0;
    if (inside && start < 0) start = i;
    else if (!inside && start >= 0) {
      if (i - start >= shortest) decodeRun(reading, code, { start, end: i }, out);
      start = -1;
    }
  }
}

/** Pushes what the run `start`..`end` decodes to, at each alignment, a `BREAK` after each. */
function decodeRun(
  reading: Reading,
  code: GroupCode,
  { start, end }: { start: number; end: number },
  out: CharSink,
): void {
  const { codes, from, to } = reading;
  const { values, bits, group: size } = code;
  for (let align = 0; align < size; align++) {
    for (let group = start + align; group + 1 < end; group += size) {
      const last = Math.min(group + size, end);
      const spanFrom = from[group]!;
      const spanTo = to[last - 1]!;
      // Bits not yet made a byte: fewer than 8 + `bits`, so integer operations hold them.
      let value = 0;
      let held = 0;
      for (let k = group; k < last; k++) {
        value = (value << bits) | values[codes[k]!]!;
        held += bits;
        if (held < 8) continue;
        held -= 8;
        const byte = value >> held;
        value &= (1 << held) - 1;
        if (byte !== 0) out.push(byte, spanFrom, spanTo);
      }
    }
    out.push(BREAK, 0, 0);
  }
}

/** Base64, as above (kept under its own name: decisions/024). */
export function decodeBase64(reading: Reading, shortest: number, out: CharSink): void {
  decodeGroups(reading, BASE64, shortest, out);
}

/** Hex, as above. */
export function decodeHex(reading: Reading, shortest: number, out: CharSink): void {
  decodeGroups(reading, HEX, shortest, out);
}

/** Characters between two numbers of a list: `,` `;` and white space (a gap where the reading dropped it). */
const isListSeparator = (code: number) =>
  code === 0x2c ||
  code === 0x3b ||
  code === 0x20 ||
  code === 0x09 ||
  code === 0x0a ||
  code === 0x0d;
/** At most this many separators between two numbers of one list (`, ` is 2). */
const MOST_SEPARATORS = 3;

/**
 * Pushes into `out` the bytes of each list of byte values: decimal numbers 0–255 (`[115,107]`,
 * `[115 107]`, `[115, 107]`), or, with `radix` 16, hex ones of one or two digits with or without `0x`
 * (`[73, 6b]`, `0x73,0x6b`). Numbers are separated by `,`, `;` or white space; anything else ends the
 * list (a `BREAK`). Each byte's span is its number.
 */
export function decodeNumberLists(reading: Reading, radix: 10 | 16, out: CharSink): void {
  const { codes, from, to, length } = reading;
  const inNumber = radix === 10 ? isDigit : isHexToken;
  let start = -1;
  let separators = 0;
  let broken = true; // no number of the list under way: nothing to end
  for (let i = 0; i < length; i++) {
    const code = codes[i]!;
    if (inNumber(code)) {
      if (start < 0) start = i;
      // A gap: something the reading dropped (white space) separates this number from the next.
      const gap = i + 1 < length && to[i]! < from[i + 1]!;
      if (!gap && i + 1 < length && inNumber(codes[i + 1]!)) continue;
      const byte = listValue(codes, start, i + 1, radix);
      if (byte === undefined || separators > MOST_SEPARATORS) broken = endList(out, broken);
      if (byte !== undefined && byte !== 0) {
        out.push(byte, from[start]!, to[i]!);
        broken = false;
      }
      start = -1;
      separators = gap ? 1 : 0;
    } else if (isListSeparator(code)) separators++;
    else {
      broken = endList(out, broken);
      separators = 0;
    }
  }
  endList(out, broken);
}

/** Ends the list under way (a `BREAK`), if there is one. */
function endList(out: CharSink, broken: boolean): true {
  if (!broken) out.push(BREAK, 0, 0);
  return true;
}

const isDigit = (code: number) => code >= 0x30 && code <= 0x39;
const isHexToken = (code: number) =>
  (code >= 0 && code < 128 && HEX_VALUES[code]! >= 0) || (code | 0x20) === 0x78;

/** The byte a number of a list stands for, or undefined when it is not one. */
function listValue(
  codes: Int32Array,
  start: number,
  end: number,
  radix: 10 | 16,
): number | undefined {
  let first = start;
  if (
    radix === 16 &&
    end - start > 2 &&
    codes[start] === 0x30 &&
    (codes[start + 1]! | 0x20) === 0x78
  )
    first += 2;
  if (end - first > (radix === 10 ? 3 : 2)) return undefined;
  let value = 0;
  for (let k = first; k < end; k++) {
    const digit = hexDigit(codes[k]!);
    if (digit < 0 || digit >= radix) return undefined;
    value = value * radix + digit;
  }
  return value <= 0xff ? value : undefined;
}

/**
 * A sink for decoded bytes that passes each run on to `out` as it is, then decoded once more as
 * base64 and as hex (base64 of base64, base64 of hex, hex of base64, hex of hex, base64 in a byte
 * list …): one run is kept at a time, in a buffer reused from run to run.
 */
export class NestedBytes implements CharSink {
  /**
   * One buffer for every search (a search runs to its end before the next starts: nothing in it waits
   * or calls out), made on the first byte and dropped once it has grown past a few thousand.
   */
  static #shared: ReadingBuilder | undefined;
  #buffer: ReadingBuilder | undefined;

  readonly #out: CharSink;
  /** The fewest characters of base64 and of hex worth decoding once more. */
  readonly #shortest64: number;
  readonly #shortestHex: number;

  /** `shortest`: the fewest bytes worth decoding (a part of a key is at least this long). */
  constructor(out: CharSink, shortest: number) {
    this.#out = out;
    this.#shortest64 = charsFor(BASE64, shortest);
    this.#shortestHex = charsFor(HEX, shortest);
  }

  push(code: number, from: number, to: number): void {
    if (code === RUN_END) return this.end();
    (this.#buffer ??= NestedBytes.#sharedBuffer()).push(code, from, to);
  }

  /** Passes on and decodes the run under way. */
  end(): void {
    const run = this.#buffer;
    if (run === undefined || run.length === 0) return;
    const out = this.#out;
    for (let i = 0; i < run.length; i++) out.push(run.codes[i]!, run.from[i]!, run.to[i]!);
    out.push(BREAK, 0, 0);
    decodeGroups(run, BASE64, this.#shortest64, out);
    decodeGroups(run, HEX, this.#shortestHex, out);
    run.clear();
  }

  static #sharedBuffer(): ReadingBuilder {
    let shared = NestedBytes.#shared;
    if (shared === undefined || shared.codes.length > 4096)
      shared = NestedBytes.#shared = new ReadingBuilder(64);
    shared.clear();
    return shared;
  }
}

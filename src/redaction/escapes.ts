import { ReadingBuilder, gapAfter, hexDigit as digitOf, type Reading } from './reading.ts';

/** Read once: an imported binding may be a getter, and this is called for every digit. */
const hexDigit = digitOf;

/**
 * Escapes decoded, one pass at a time: percent (`%73`, `%u0073`), backslash (`\u0073`, `\u{73}`, `\x73`,
 * `\/`, `\n`), HTML character references (`&#115;`, `&#x73;`, `&hyphen;`), and, as the style says,
 * either C's octal escapes (`\163`) or CSS's hex escapes and quoted-printable (`\73 `, `=73`). The two
 * styles read `\163` differently (octal 115 `s`, or CSS's U+0163), so a text that may hold either is
 * decoded both ways, each its own chain of passes (text-readings.ts).
 */
export type EscapeStyle = 'c' | 'css';

/** One pass of escape decoding; undefined when the reading holds no escape of the style. */
export function decodeOnce(reading: Reading, style: EscapeStyle): Reading | undefined {
  const { codes, from, to, length } = reading;
  let out: ReadingBuilder | undefined; // made at the first escape: most texts hold none
  for (let i = 0; i < length; i++) {
    const escape = escapeAt(reading, i, style);
    if (escape === undefined) {
      out?.push(codes[i]!, from[i]!, to[i]!);
      continue;
    }
    if (out === undefined) {
      out = new ReadingBuilder(length);
      for (let k = 0; k < i; k++) out.push(codes[k]!, from[k]!, to[k]!);
    }
    const last = i + escape.width - 1;
    if (escape.code !== undefined) out.pushFolded(escape.code, from[i]!, to[last]!);
    i = last;
  }
  return out;
}

/** An escape at `i`: how many characters it takes and the code it stands for (none: it stands for spacing). */
interface Escape {
  readonly width: number;
  readonly code: number | undefined;
}

/** An escape of `width` characters standing for `code`, or none when there is no code. */
const escapeOf = (width: number, code: number | undefined): Escape | undefined =>
  code === undefined ? undefined : { width, code };

const PERCENT = 0x25;
const BACKSLASH = 0x5c;
const AMPERSAND = 0x26;
const EQUALS = 0x3d;

function escapeAt(reading: Reading, i: number, style: EscapeStyle): Escape | undefined {
  const { codes, length } = reading;
  const code = codes[i];
  if (code === PERCENT) return percentEscape(codes, i, length);
  if (code === BACKSLASH)
    return style === 'css' ? cssEscape(reading, i) : backslashEscape(codes, i, length);
  if (code === AMPERSAND) return characterReference(codes, i, length);
  if (code === EQUALS && style === 'css') return quotedPrintable(reading, i);
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

const isAlphanumeric = (code: number) =>
  (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a);
const isOctal = (code: number | undefined) => code !== undefined && code >= 0x30 && code <= 0x37;

/** `%73`, and `%u0073` (the non-standard form some servers still write). */
function percentEscape(codes: Int32Array, i: number, length: number): Escape | undefined {
  const byte = hexAt(codes, i + 1, 2, length);
  if (byte !== undefined) return { width: 3, code: byte };
  if ((codes[i + 1]! | 0x20) !== 0x75) return undefined;
  return escapeOf(6, hexAt(codes, i + 2, 4, length));
}

/** Spacing escapes: `\n`, `\r`, `\t`, `\b`, `\f`, `\v`. */
const SPACING_ESCAPES = new Set([0x6e, 0x72, 0x74, 0x62, 0x66, 0x76]);

/**
 * `\u0073`, `\u{73}`, `\x73`, C's octal `\163` (one to three digits, `\0` among them), a spacing escape,
 * or a backslash before punctuation (`\/`, `\"`, `\\`).
 */
function backslashEscape(codes: Int32Array, i: number, length: number): Escape | undefined {
  const next = codes[i + 1];
  if (next === undefined || i + 1 >= length) return undefined;
  if (isOctal(next)) return octalEscape(codes, i, length);
  if (next === 0x75) return unicodeEscape(codes, i, length);
  if (next === 0x78) {
    return escapeOf(4, hexAt(codes, i + 2, 2, length));
  }
  if (SPACING_ESCAPES.has(next)) return { width: 2, code: undefined };
  if (next >= 0x21 && next <= 0x7e && !isAlphanumeric(next)) return { width: 2, code: next };
  return undefined;
}

/** `\u0073` or `\u{73}`. */
function unicodeEscape(codes: Int32Array, i: number, length: number): Escape | undefined {
  if (codes[i + 2] === 0x7b) return bracedEscape(codes, i, length);
  return escapeOf(6, hexAt(codes, i + 2, 4, length));
}

/** `\163`: up to three octal digits, as long as the value stays a byte (`\400` is `\40` then `0`). */
function octalEscape(codes: Int32Array, i: number, length: number): Escape {
  let value = 0;
  let k = i + 1;
  for (; k < Math.min(length, i + 4) && isOctal(codes[k]); k++) {
    const next = value * 8 + codes[k]! - 0x30;
    if (next > 0xff) break;
    value = next;
  }
  return { width: k - i, code: value };
}

/**
 * CSS: `\73` (one to six hex digits, ended by a non-hex character or by the white space that follows,
 * which the plain reading has already dropped: a gap); otherwise as the C style reads it (`\u0073`,
 * `\x73`, `\/` …) but for octal.
 */
function cssEscape(reading: Reading, i: number): Escape | undefined {
  const { codes, length } = reading;
  let value = 0;
  let k = i + 1;
  for (; k < Math.min(length, i + 7) && hexDigit(codes[k]!) >= 0; k++) {
    value = value * 16 + hexDigit(codes[k]!);
    if (gapAfter(reading, k)) {
      k++;
      break;
    }
  }
  if (k === i + 1) return backslashEscape(codes, i, length);
  return value > 0x10ffff ? undefined : { width: k - i, code: value };
}

/**
 * Quoted-printable (RFC 2045 §6.7): `=73` (upper-case hex, as the RFC writes it: base64's padding is
 * followed by lower-case letters as often as not), and a soft line break (`=` at the end of a line,
 * which the plain reading has dropped: a gap) that stands for nothing.
 */
function quotedPrintable(reading: Reading, i: number): Escape | undefined {
  const { codes, length } = reading;
  if (gapAfter(reading, i)) return { width: 1, code: undefined };
  const isUpperHex = (code: number) => hexDigit(code) >= 0 && !(code >= 0x61 && code <= 0x66);
  if (i + 2 >= length || !isUpperHex(codes[i + 1]!) || !isUpperHex(codes[i + 2]!)) return undefined;
  return { width: 3, code: hexDigit(codes[i + 1]!) * 16 + hexDigit(codes[i + 2]!) };
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
      return escapeOf(k - i + 1, value);
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

import { decodeOnce, type EscapeStyle } from './escapes.ts';
import { ReadingBuilder, type Reading } from './reading.ts';

/**
 * Readings of an untrusted text, for finding a key however it was echoed: the text with what hides a
 * key from a plain search taken away (decisions/024, decisions/048).
 *
 * - `plainReading`: invisible characters dropped (zero-width and other format characters, soft hyphens,
 *   whitespace and line breaks, controls, combining marks), compatibility forms folded (fullwidth
 *   `ｓｋ－` → `sk-`, NFKC for the rest).
 * - `decodedReadings`: the plain reading with escapes decoded, repeatedly (nested encodings): percent
 *   (`%73`, `%2573`, `%u0073`), backslash (`\u0073`, `\u{73}`, `\x73`, `\/`, `\n`), HTML character
 *   references (`&#115;`, `&#x73;`, `&amp;`, `&hyphen;`, `&shy;`), and C's octal escapes (`\163`) or, in
 *   the CSS style, CSS's hex escapes (`\73 `) and quoted-printable (`=73`, soft line breaks).
 * - byte-readings.ts: the bytes runs of base64, base32, hex and lists of byte values decode to, once
 *   and twice; layout-readings.ts: characters spread out by separators, markup taken out.
 *
 * Every reading is built in one pass over its input (a few passes in all, none backtracking): linear in
 * the text's length whatever it holds.
 */

export { BREAK, type CharSink, type Reading } from './reading.ts';
export { decodeBase64, decodeHex } from './byte-readings.ts';

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
export function decodedReadings(plain: Reading, style: EscapeStyle = 'c'): Reading[] {
  const readings: Reading[] = [];
  let reading = plain;
  for (let pass = 0; pass < 4; pass++) {
    const next = decodeOnce(reading, style);
    if (next === undefined) break;
    readings.push(next);
    reading = next;
  }
  return readings;
}

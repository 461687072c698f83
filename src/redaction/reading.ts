/**
 * A reading of a text: a sequence of characters (or decoded bytes), each remembering the span of the
 * original text it came from, so that what a search finds in a reading is masked in the text
 * (decisions/024). The readings themselves: text-readings.ts (invisible characters, escapes),
 * byte-readings.ts (base64, base32, hex, number lists), layout-readings.ts (spread-out characters,
 * markup).
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
export class ReadingBuilder implements Reading, CharSink {
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

  /** Empties it for reuse (its arrays are kept). */
  clear(): void {
    this.length = 0;
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

/**
 * Whether something the reading left out (white space, an invisible character, an escape that stands
 * for nothing) lay between character `i` and the next one: a separator a reader saw.
 */
export function gapAfter(reading: Reading, i: number): boolean {
  return i + 1 < reading.length && reading.to[i]! < reading.from[i + 1]!;
}

/** An alphabet's value of each ASCII character (its index in `letters`); -1 for any other. */
export function alphabet(letters: string): Int8Array {
  const table = new Int8Array(128).fill(-1);
  for (let i = 0; i < letters.length; i++) table[letters.charCodeAt(i)] = i;
  return table;
}

/** The value of each ASCII hex digit, either case; -1 for any other character. */
export const HEX_DIGITS = alphabet('0123456789abcdef');
for (let i = 10; i < 16; i++) HEX_DIGITS[0x37 + i] = i; // A-F

/** The value of a hex digit of either case, or -1. */
export const hexDigit = (code: number): number =>
  code >= 0 && code < 128 ? HEX_DIGITS[code]! : -1;

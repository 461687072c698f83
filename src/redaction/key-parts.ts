import { BREAK, type Reading } from './reading.ts';

/**
 * Read once here: under some module loaders an imported binding is a getter, and this is compared with
 * every character a search reads.
 */
const RUN_END = BREAK;

/** Where a stretch that spells a part of a key came from in the original text, and which key. */
export interface KeyPart {
  readonly from: number;
  readonly to: number;
  readonly key: number;
}

/** ASCII letters compared without case (a key travels in an HTTP header: it is ASCII). */
const fold = (code: number) => (code >= 0x41 && code <= 0x5a ? code + 0x20 : code);

/**
 * The keys to look for, as a suffix automaton: followed character by character, it knows the longest
 * stretch ending at the current character that is a part of a key, in amortised constant time (no
 * backtracking: linear in the text read). Built once per redactor.
 */
export class KeyParts {
  /** Per state while building: its transitions, suffix link, longest length, the key it came from. */
  readonly #next: Map<number, number>[] = [];
  readonly #links: number[] = [];
  readonly #lens: number[] = [];
  readonly #keys: number[] = [];
  /** The same, once built, for the search's inner loop. */
  readonly link: Int32Array;
  readonly len: Int32Array;
  readonly key: Int32Array;
  /** Per state: the fewest characters a stretch ending in it must have to be masked. */
  readonly shortest: Float64Array;
  /** `table[state * 128 + code]`: the transitions on ASCII codes, letters lower-cased (-1: none). */
  readonly table: Int32Array;
  /** The longest key, in characters. */
  readonly longest: number;

  constructor(keys: readonly string[], shortest: (key: string) => number) {
    this.#state(0, -1, -1);
    keys.forEach((key, index) => {
      let last = 0;
      for (const char of key) last = this.#extend(last, fold(char.codePointAt(0)!), index);
      // A code no reading holds keeps two keys from forming one part across their boundary.
      this.#extend(last, -2 - index, index);
    });
    const states = this.#lens.length;
    this.longest = Math.max(0, ...keys.map((k) => [...k].length));
    this.link = Int32Array.from(this.#links);
    this.len = Int32Array.from(this.#lens);
    this.key = Int32Array.from(this.#keys);
    this.shortest = new Float64Array(states);
    this.table = new Int32Array(states * 128).fill(-1);
    for (let s = 0; s < states; s++) {
      const key = this.#keys[s]!;
      this.shortest[s] = key < 0 ? Infinity : shortest(keys[key]!);
      for (const [code, to] of this.#next[s]!) {
        if (code >= 0 && code < 128) this.table[s * 128 + code] = to;
        // Upper-case letters step like lower-case ones.
        if (code >= 0x61 && code <= 0x7a) this.table[s * 128 + code - 0x20] = to;
      }
    }
  }

  /** A search that reads characters one by one and reports each long enough part of a key. */
  scan(found: (part: KeyPart) => void): KeyScan {
    return new KeyScan(this, found);
  }

  /** Reports each long enough part of a key that `reading` spells. */
  find(reading: Reading, found: (part: KeyPart) => void): void {
    const scan = this.scan(found);
    const { codes, from, to, length } = reading;
    for (let i = 0; i < length; i++) scan.push(codes[i]!, from[i]!, to[i]!);
    scan.end();
  }

  /** The state after a code that is not ASCII (keys hardly hold one), or -1. */
  stepWide(state: number, code: number): number {
    return this.#next[state]!.get(code) ?? -1;
  }

  #state(len: number, link: number, key: number): number {
    this.#next.push(new Map());
    this.#links.push(link);
    this.#lens.push(len);
    this.#keys.push(key);
    return this.#lens.length - 1;
  }

  /** The classic online construction (Blumer et al.): appends `code` after state `last`. */
  #extend(last: number, code: number, key: number): number {
    const current = this.#state(this.#lens[last]! + 1, 0, key);
    let p = last;
    while (p !== -1 && !this.#next[p]!.has(code)) {
      this.#next[p]!.set(code, current);
      p = this.#links[p]!;
    }
    if (p === -1) return current;
    const q = this.#next[p]!.get(code)!;
    if (this.#lens[p]! + 1 === this.#lens[q]) {
      this.#links[current] = q;
      return current;
    }
    const clone = this.#state(this.#lens[p]! + 1, this.#links[q]!, this.#keys[q]!);
    this.#next[clone] = new Map(this.#next[q]);
    while (p !== -1 && this.#next[p]!.get(code) === q) {
      this.#next[p]!.set(code, clone);
      p = this.#links[p]!;
    }
    this.#links[q] = clone;
    this.#links[current] = clone;
    return current;
  }
}

/**
 * One search through a stream of characters, each with the span of the original text it came from:
 * a decoder pushes what it decodes as it goes, nothing is stored but the spans of the last key's length
 * of characters. Adjacent or overlapping stretches are reported as one.
 */
export class KeyScan {
  #state = 0;
  #matched = 0;
  #position = 0;
  readonly #size: number;
  readonly #from: Int32Array;
  #open: { from: number; to: number; key: number; last: number } | undefined;

  constructor(
    readonly parts: KeyParts,
    readonly found: (part: KeyPart) => void,
  ) {
    this.#size = parts.longest + 1;
    this.#from = new Int32Array(this.#size);
  }

  push(code: number, from: number, to: number): void {
    if (code === RUN_END) return this.#reset();
    const { table, link, len } = this.parts;
    const i = this.#position++;
    this.#from[i % this.#size] = from;
    let state = this.#state;
    let matched = this.#matched;
    let next = code < 128 ? table[state * 128 + code]! : this.parts.stepWide(state, code);
    while (next < 0 && state !== 0) {
      state = link[state]!;
      matched = len[state]!;
      next = code < 128 ? table[state * 128 + code]! : this.parts.stepWide(state, code);
    }
    if (next < 0) matched = 0;
    else {
      state = next;
      matched++;
    }
    this.#state = state;
    this.#matched = matched;
    if (matched !== 0 && matched >= this.parts.shortest[state]!)
      this.#extendOpen(i - matched + 1, i, to);
  }

  /** Adds the stretch `first`..`last` to the one open, or reports that one and opens this. */
  #extendOpen(first: number, last: number, to: number): void {
    const open = this.#open;
    if (open !== undefined && first <= open.last + 1) {
      open.last = last;
      open.to = Math.max(open.to, to);
      return;
    }
    if (open !== undefined) this.found(open);
    const from = this.#from[first % this.#size]!;
    this.#open = { from, to, key: this.parts.key[this.#state]!, last };
  }

  /** Nothing read so far continues into what comes next. */
  #reset(): void {
    this.#state = 0;
    this.#matched = 0;
    this.#position += this.#size; // no stretch spans the break
  }

  /** Reports the last stretch, if one is open. */
  end(): void {
    if (this.#open !== undefined) this.found(this.#open);
    this.#open = undefined;
    this.#reset();
  }
}

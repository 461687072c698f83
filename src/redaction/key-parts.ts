import { BREAK, type Reading } from './text-readings.ts';

/** One stretch of a reading that spells a part of a key: reading indices `first`..`last`, and which key. */
export interface KeyPart {
  readonly first: number;
  readonly last: number;
  readonly key: number;
}

/** ASCII letters compared without case (a key travels in an HTTP header: it is ASCII). */
const fold = (code: number) => (code >= 0x41 && code <= 0x5a ? code + 0x20 : code);

/**
 * Finds, in one pass over a reading, every stretch that spells a part of one of the keys at least
 * `shortest(key)` characters long, case-insensitively. A suffix automaton of the keys follows the
 * reading: at each character it knows the longest stretch ending there that is a part of a key, in
 * amortised constant time (no backtracking: linear in the reading's length).
 */
export class KeyParts {
  /** Per state: its transitions, suffix link, longest length, and the key it came from. */
  readonly #next: Map<number, number>[] = [];
  readonly #link: number[] = [];
  readonly #len: number[] = [];
  readonly #key: number[] = [];
  /** Per state: the fewest characters a stretch ending in it must have to be masked. */
  readonly #shortest: number[] = [];
  /** `#table[state * 128 + code]`: the transitions on ASCII codes, read by `find` (-1: none). */
  readonly #table: Int32Array;

  constructor(keys: readonly string[], shortest: (key: string) => number) {
    this.#state(0, -1, -1);
    keys.forEach((key, index) => {
      let last = 0;
      for (const char of key) last = this.#extend(last, fold(char.codePointAt(0)!), index);
      // A code no reading holds keeps two keys from forming one part across their boundary.
      this.#extend(last, -2 - index, index);
    });
    this.#table = new Int32Array(this.#len.length * 128).fill(-1);
    for (let s = 0; s < this.#len.length; s++) {
      const key = this.#key[s]!;
      this.#shortest[s] = key < 0 ? Infinity : shortest(keys[key]!);
      for (const [code, to] of this.#next[s]!)
        if (code >= 0 && code < 128) this.#table[s * 128 + code] = to;
    }
  }

  /** The state after `code` from `state`, or -1. */
  #step(state: number, code: number): number {
    if (code < 128) return this.#table[state * 128 + code]!;
    return this.#next[state]!.get(code) ?? -1;
  }

  /** Calls `found` for each maximal stretch of `reading` that spells a long enough part of a key. */
  find(reading: Reading, found: (part: KeyPart) => void): void {
    const { codes, length } = reading;
    let state = 0;
    let matched = 0;
    let open: { first: number; last: number; key: number } | undefined;
    for (let i = 0; i < length; i++) {
      const code = codes[i]!;
      if (code === BREAK) {
        state = 0;
        matched = 0;
      } else {
        const c = fold(code);
        let to = this.#step(state, c);
        while (to < 0 && state !== 0) {
          state = this.#link[state]!;
          matched = this.#len[state]!;
          to = this.#step(state, c);
        }
        if (to < 0) matched = 0;
        else {
          state = to;
          matched++;
        }
      }
      if (matched === 0 || matched < this.#shortest[state]!) continue;
      const first = i - matched + 1;
      if (open !== undefined && first <= open.last + 1) open.last = i;
      else {
        if (open !== undefined) found(open);
        open = { first, last: i, key: this.#key[state]! };
      }
    }
    if (open !== undefined) found(open);
  }

  #state(len: number, link: number, key: number): number {
    this.#next.push(new Map());
    this.#link.push(link);
    this.#len.push(len);
    this.#key.push(key);
    return this.#len.length - 1;
  }

  /** The classic online construction (Blumer et al.): appends `code` after state `last`. */
  #extend(last: number, code: number, key: number): number {
    const current = this.#state(this.#len[last]! + 1, 0, key);
    let p = last;
    while (p !== -1 && !this.#next[p]!.has(code)) {
      this.#next[p]!.set(code, current);
      p = this.#link[p]!;
    }
    if (p === -1) return current;
    const q = this.#next[p]!.get(code)!;
    if (this.#len[p]! + 1 === this.#len[q]) {
      this.#link[current] = q;
      return current;
    }
    const clone = this.#state(this.#len[p]! + 1, this.#link[q]!, this.#key[q]!);
    this.#next[clone] = new Map(this.#next[q]);
    while (p !== -1 && this.#next[p]!.get(code) === q) {
      this.#next[p]!.set(code, clone);
      p = this.#link[p]!;
    }
    this.#link[q] = clone;
    this.#link[current] = clone;
    return current;
  }
}

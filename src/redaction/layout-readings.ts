import { BREAK, ReadingBuilder, type CharSink, type Reading } from './reading.ts';

/**
 * Readings of how a text is laid out rather than encoded: characters spread out by separators
 * (`s-k-…`, `s.k.…`, `s, k, …`, `s--k--…`: every second or third character), and a text as it shows
 * once rendered (HTML tags and comments, Markdown's `*`, `` ` `` and `~`, and terminal colour codes
 * taken out: `sk-<b></b>mock…`, `sk-<!-- -->mock…`). Each is one pass over its input (a few for the
 * spread-out readings, one per alignment): linear in the text's length.
 */

/** The strides of the spread-out readings: one separator character, or two, between characters. */
export const STRIDES: readonly number[] = [2, 3];

/** Pushes into `out` every `stride`-th character of `reading`, at each alignment, a `BREAK` after each. */
export function pushStrided(reading: Reading, stride: number, out: CharSink): void {
  const { codes, from, to, length } = reading;
  for (let align = 0; align < stride; align++) {
    for (let i = align; i < length; i += stride) out.push(codes[i]!, from[i]!, to[i]!);
    out.push(BREAK, 0, 0);
  }
}

const LESS_THAN = 0x3c;
const GREATER_THAN = 0x3e;
const OPEN_BRACKET = 0x5b;
/** Markdown's emphasis, code and strike-through marks (not `_`: keys hold it). */
const isMarkdownMark = (code: number) => code === 0x2a || code === 0x60 || code === 0x7e;
const isLetter = (code: number) => (code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a;

/**
 * The reading as it shows once rendered: HTML tags (`<b>`, `</b>`, `<span …>`, `<!doctype …>`) and
 * comments (`<!-- … -->`) taken out, Markdown's marks too, and terminal colour codes (`[31m`, whose
 * escape character the plain reading already dropped). Undefined when nothing was taken out.
 */
export function renderedReading(reading: Reading): Reading | undefined {
  const { codes, from, to, length } = reading;
  // Where the next `>` and `-->` are, once looked for (`length`: there is none): each is searched for
  // once per tag, never again from an earlier position (an unclosed `<` repeated is read once).
  const closing = { tag: -1, comment: -1 };
  let out: ReadingBuilder | undefined; // made at the first markup: most texts hold none
  for (let i = 0; i < length; i++) {
    const end = markupEnd(reading, i, closing);
    if (end === i && !isMarkdownMark(codes[i]!)) {
      out?.push(codes[i]!, from[i]!, to[i]!);
      continue;
    }
    if (out === undefined) {
      out = new ReadingBuilder(length);
      for (let k = 0; k < i; k++) out.push(codes[k]!, from[k]!, to[k]!);
    }
    i = Math.max(i, end - 1);
  }
  return out;
}

interface Closing {
  tag: number;
  comment: number;
}

/** Where markup that starts at `i` ends (exclusive), or `i` when none starts there. */
function markupEnd(reading: Reading, i: number, closing: Closing): number {
  const { codes, length } = reading;
  const code = codes[i]!;
  if (code === OPEN_BRACKET) return colourCodeEnd(reading, i);
  if (code !== LESS_THAN || i + 1 >= length) return i;
  const next = codes[i + 1]!;
  if (next === 0x21 && codes[i + 2] === 0x2d && codes[i + 3] === 0x2d)
    return commentEnd(reading, i, closing);
  return isLetter(next) || next === 0x2f || next === 0x21 || next === 0x3f
    ? tagEnd(reading, i, closing)
    : i;
}

/** The end of the comment `<!--` at `i` starts (after its `-->`), or `i` when it never ends. */
function commentEnd(reading: Reading, i: number, closing: Closing): number {
  if (closing.comment < i + 4) closing.comment = find(reading, [0x2d, 0x2d, 0x3e], i + 4);
  return closing.comment < reading.length ? closing.comment + 3 : i;
}

/** The end of the tag `<` at `i` starts (after its `>`), or `i` when no `>` follows. */
function tagEnd(reading: Reading, i: number, closing: Closing): number {
  if (closing.tag <= i) closing.tag = find(reading, [GREATER_THAN], i + 1);
  return closing.tag < reading.length ? closing.tag + 1 : i;
}

/** The first place from `at` where the reading holds `wanted`, or its length. */
function find(reading: Reading, wanted: readonly number[], at: number): number {
  const { codes, length } = reading;
  outer: for (let i = at; i + wanted.length <= length; i++) {
    for (let k = 0; k < wanted.length; k++) if (codes[i + k] !== wanted[k]) continue outer;
    return i;
  }
  return length;
}

/**
 * The end (exclusive) of a terminal's colour code at `i` (`[`, up to 8 digits or `;`, then a letter),
 * when an escape character (which the plain reading dropped: a gap) came just before it; else `i`.
 */
function colourCodeEnd(reading: Reading, i: number): number {
  const { codes, from, to, length } = reading;
  const escaped = i === 0 ? from[0]! > 0 : from[i]! > to[i - 1]!;
  if (!escaped) return i;
  let k = i + 1;
  while (
    k < Math.min(length, i + 10) &&
    ((codes[k]! >= 0x30 && codes[k]! <= 0x39) || codes[k] === 0x3b)
  )
    k++;
  return k < length && isLetter(codes[k]!) ? k + 1 : i;
}

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
  if (!holdsMarkup(codes, length)) return undefined;
  const out = new ReadingBuilder(length);
  // Where the next `>` and `-->` are, once looked for: each is searched for once per tag, never again
  // from an earlier position (an unclosed `<` repeated is read once, not once per `<`).
  const closing = { tag: -1, comment: -1, noTag: false, noComment: false };
  let removed = false;
  for (let i = 0; i < length; i++) {
    const code = codes[i]!;
    const end = markupEnd(reading, i, closing);
    if (end > i) {
      removed = true;
      i = end - 1;
    } else if (isMarkdownMark(code)) removed = true;
    else out.push(code, from[i]!, to[i]!);
  }
  return removed ? out : undefined;
}

/** Whether any character that may start markup is there (most texts: none, and nothing is built). */
function holdsMarkup(codes: Int32Array, length: number): boolean {
  for (let i = 0; i < length; i++) {
    const code = codes[i]!;
    if (code === LESS_THAN || code === OPEN_BRACKET || isMarkdownMark(code)) return true;
  }
  return false;
}

interface Closing {
  tag: number;
  comment: number;
  noTag: boolean;
  noComment: boolean;
}

/** Where markup that starts at `i` ends (exclusive), or `i` when none starts there. */
function markupEnd(reading: Reading, i: number, closing: Closing): number {
  const { codes, length } = reading;
  const code = codes[i]!;
  if (code === OPEN_BRACKET && isColourCode(reading, i)) return colourCodeEnd(codes, i, length);
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
  if (closing.noComment) return i;
  if (closing.comment < i + 4) closing.comment = find(reading, [0x2d, 0x2d, 0x3e], i + 4);
  if (closing.comment >= 0) return closing.comment + 3;
  closing.noComment = true;
  return i;
}

/** The end of the tag `<` at `i` starts (after its `>`), or `i` when no `>` follows. */
function tagEnd(reading: Reading, i: number, closing: Closing): number {
  if (closing.noTag) return i;
  if (closing.tag <= i) closing.tag = find(reading, [GREATER_THAN], i + 1);
  if (closing.tag >= 0) return closing.tag + 1;
  closing.noTag = true;
  return i;
}

/** The first place from `at` where `codes` holds `wanted`, or -1. */
function find(reading: Reading, wanted: readonly number[], at: number): number {
  const { codes, length } = reading;
  outer: for (let i = at; i + wanted.length <= length; i++) {
    for (let k = 0; k < wanted.length; k++) if (codes[i + k] !== wanted[k]) continue outer;
    return i;
  }
  return -1;
}

/** `[`, digits and `;`, then a letter: a terminal's colour code, when an escape character preceded it. */
function isColourCode(reading: Reading, i: number): boolean {
  const { codes, from, to, length } = reading;
  const escaped = i === 0 ? from[0]! > 0 : from[i]! > to[i - 1]!;
  if (!escaped) return false;
  const end = colourCodeEnd(codes, i, length);
  return end > i;
}

/** The end (exclusive) of a colour code at `i` (`[` then up to 8 digits or `;`, then a letter), or `i`. */
function colourCodeEnd(codes: Int32Array, i: number, length: number): number {
  let k = i + 1;
  while (
    k < Math.min(length, i + 10) &&
    ((codes[k]! >= 0x30 && codes[k]! <= 0x39) || codes[k] === 0x3b)
  )
    k++;
  return k < length && isLetter(codes[k]!) ? k + 1 : i;
}

/**
 * The service document (`spec/service-document.md`) split into the smallest pieces a statement of
 * `spec/statements.yaml` is made of: each data row of a table, and each sentence of a paragraph or of a
 * list item. Headings are not units (they give the section); a table's header row is not one either.
 * Environment-neutral: it reads a string.
 */
export interface DocumentUnit {
  /** `§2.1` for "### 2.1 …", `§7` for "## 7. …"; `intro` before the first numbered heading. */
  readonly section: string;
  /** Which block (table row, list item, paragraph) of the document it belongs to, in reading order. */
  readonly block: number;
  /** Its first line in the document, from 1. */
  readonly line: number;
  /** A table row's cells joined by ` | `, or one sentence. */
  readonly text: string;
}

/** A sentence ends with `.`, `!` or `?` before a space and a capital, a digit, a backtick or a bracket. */
const SENTENCE_END = /(?<=[.!?])\s+(?=[A-Z0-9`({[])/;
const HEADING = /^(#{1,6})\s+(.*)$/;
const LIST_ITEM = /^\s*(?:[-*+]|\d+\.)\s+(.*)$/;

/** `§2.1` from "2.1 Submission request", `§7` from "7. Errors"; undefined for an unnumbered heading. */
function sectionOf(heading: string): string | undefined {
  const match = /^(\d+(?:\.\d+)*)\.?\s/.exec(heading);
  return match === null ? undefined : `§${match[1]}`;
}

const cellsOf = (line: string): string[] =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((cell) => cell.trim());

/** The sentences of one paragraph or list item, whitespace collapsed. */
export function sentencesOf(text: string): string[] {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .split(SENTENCE_END)
    .filter((s) => s !== '');
}

interface Block {
  readonly section: string;
  readonly line: number;
  readonly texts: readonly string[];
}

/** The document's blocks in reading order: table rows (one each), list items, paragraphs. */
function blocksOf(markdown: string): Block[] {
  const blocks: Block[] = [];
  let section = 'intro';
  let open: { line: number; parts: string[] } | undefined;
  let tableRow = 0;
  const close = () => {
    if (open !== undefined)
      blocks.push({ section, line: open.line, texts: sentencesOf(open.parts.join(' ')) });
    open = undefined;
  };
  markdown.split('\n').forEach((raw, index) => {
    const line = raw.trimEnd();
    const heading = HEADING.exec(line);
    const item = LIST_ITEM.exec(line);
    if (!line.trim().startsWith('|')) tableRow = 0;
    if (line.trim() === '' || heading !== null) {
      close();
      if (heading !== null && heading[1] !== '#') section = sectionOf(heading[2]!) ?? section;
    } else if (line.trim().startsWith('|')) {
      close();
      const cells = cellsOf(line);
      // The first row of a table is its header; the second its delimiter row.
      if (tableRow++ > 0 && !cells.every((c) => /^:?-+:?$/.test(c)))
        blocks.push({ section, line: index + 1, texts: [cells.join(' | ')] });
    } else if (item !== null) {
      close();
      open = { line: index + 1, parts: [item[1]!] };
    } else if (open !== undefined) open.parts.push(line.trim());
    else open = { line: index + 1, parts: [line.trim()] };
  });
  close();
  return blocks;
}

/** Every unit of the document, in reading order. */
export function documentUnits(markdown: string): DocumentUnit[] {
  return blocksOf(markdown.replace(/\r\n?/g, '\n')).flatMap((block, index) =>
    block.texts.map((text) => ({ section: block.section, block: index, line: block.line, text })),
  );
}

/** The numbered sections of the document with their titles, in order: `{section: '§2.1', title}`. */
export function documentSections(markdown: string): { section: string; title: string }[] {
  return [...markdown.matchAll(/^#{2,6}\s+(\d+(?:\.\d+)*)\.?\s+(.*)$/gm)].map((m) => ({
    section: `§${m[1]}`,
    title: m[2]!.trim(),
  }));
}

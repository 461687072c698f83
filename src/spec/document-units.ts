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
const FENCE = /^\s*(```|~~~)/;
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

/**
 * Reads the document line by line into blocks, in reading order: table rows (one each, the header
 * row and the delimiter row left out), list items, paragraphs, and fenced code blocks (one unit each:
 * an example is read whole).
 */
class BlockReader {
  readonly blocks: Block[] = [];
  #section = 'intro';
  #text: { line: number; parts: string[] } | undefined;
  #code: { line: number; parts: string[] } | undefined;
  #tableRows = 0;

  read(line: string, number: number): void {
    if (this.#code !== undefined || FENCE.test(line)) return this.#fence(line, number);
    const trimmed = line.trim();
    const heading = HEADING.exec(line);
    if (!trimmed.startsWith('|')) this.#tableRows = 0;
    if (trimmed === '' || heading !== null) {
      this.end();
      if (heading !== null && heading[1] !== '#')
        this.#section = sectionOf(heading[2]!) ?? this.#section;
    } else if (trimmed.startsWith('|')) this.#row(line, number);
    else this.#textLine(line, number);
  }

  /** Closes the paragraph or list item being read. */
  end(): void {
    if (this.#text !== undefined)
      this.#push(this.#text.line, sentencesOf(this.#text.parts.join(' ')));
    this.#text = undefined;
  }

  #push(line: number, texts: readonly string[]): void {
    this.blocks.push({ section: this.#section, line, texts });
  }

  #fence(line: string, number: number): void {
    this.end();
    if (this.#code === undefined) this.#code = { line: number, parts: [] };
    else if (!FENCE.test(line)) this.#code.parts.push(line);
    else {
      const text = this.#code.parts.join(' ').replace(/\s+/g, ' ').trim();
      if (text !== '') this.#push(this.#code.line, [text]);
      this.#code = undefined;
    }
  }

  #row(line: string, number: number): void {
    this.end();
    const cells = cellsOf(line);
    if (this.#tableRows++ > 0 && !cells.every((c) => /^:?-+:?$/.test(c)))
      this.#push(number, [cells.join(' | ')]);
  }

  #textLine(line: string, number: number): void {
    const item = LIST_ITEM.exec(line);
    if (item !== null) {
      this.end();
      this.#text = { line: number, parts: [item[1]!] };
    } else if (this.#text !== undefined) this.#text.parts.push(line.trim());
    else this.#text = { line: number, parts: [line.trim()] };
  }
}

/** The document's blocks in reading order. */
function blocksOf(markdown: string): Block[] {
  const reader = new BlockReader();
  markdown.split('\n').forEach((line, index) => reader.read(line.trimEnd(), index + 1));
  reader.end();
  return reader.blocks;
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

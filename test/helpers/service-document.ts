import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The committed copy of the service document the spec was written from. */
export const SERVICE_DOCUMENT_PATH = fileURLToPath(
  new URL('../../spec/service-document.md', import.meta.url),
);
/** Where the workplace keeps the live contract (beside the clone). */
export const SHARED_DOCUMENT_PATH = fileURLToPath(
  new URL('../../../shared/service/video-task-service.md', import.meta.url),
);

export interface MarkdownTable {
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

/** The Markdown tables that follow a heading, in order. */
export function tablesUnder(markdown: string, heading: string): MarkdownTable[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex(
    (l) => /^#+\s/.test(l) && l.replace(/^#+\s*/, '').trim() === heading,
  );
  if (start < 0) throw new Error(`No heading "${heading}" in the service document`);
  const tables: MarkdownTable[] = [];
  let current: string[][] | undefined;
  for (const line of lines.slice(start + 1)) {
    if (/^#+\s/.test(line)) break;
    if (line.startsWith('|')) {
      const cells = line
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim());
      if (cells.every((c) => /^-+$/.test(c))) continue;
      (current ??= []).push(cells);
    } else if (current !== undefined) {
      tables.push({ header: current[0]!, rows: current.slice(1) });
      current = undefined;
    }
  }
  if (current !== undefined) tables.push({ header: current[0]!, rows: current.slice(1) });
  return tables;
}

/** Section numbers that exist in the document (`§2.2` for "### 2.2 …", `§7` for "## 7. …"). */
export function sectionsOf(markdown: string): Set<string> {
  const sections = new Set<string>();
  for (const match of markdown.matchAll(/^#{2,4}\s+(\d+(?:\.\d+)*)\.?\s/gm))
    sections.add(`§${match[1]}`);
  return sections;
}

export function readServiceDocument(): string {
  return readFileSync(SERVICE_DOCUMENT_PATH, 'utf8');
}

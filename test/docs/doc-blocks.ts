import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { videotaskCli } from '../helpers/built-cli.ts';

/**
 * Reads the user docs (README.md and docs/*.md) for the doc-tests: their fenced blocks, the marker
 * that says how each is tested, and their links and headings. The convention is in
 * docs/architecture.md ("Docs that cannot drift").
 */
export const ROOT = join(import.meta.dirname, '..', '..');

/** The address the docs give the mock; a doc-test puts the address of its own mock in its place. */
export const DOCUMENTED_URL = 'http://127.0.0.1:4010';
const PACKAGE_ENTRIES: Record<string, string> = {
  videotask: join(ROOT, 'src', 'index.ts'),
  'videotask/node': join(ROOT, 'src', 'node', 'index.ts'),
  'videotask/spec': join(ROOT, 'src', 'spec', 'node.ts'),
  'videotask/mocks': join(ROOT, 'mocks', 'index.ts'),
  'videotask/contracts': join(ROOT, 'contracts', 'index.ts'),
};

/**
 * The flags `npm start` gives `videotask mock` (package.json's `start` script): the mock a reader of
 * the README has running, which every block without a `<!-- doc-test: mock … -->` comment runs against.
 */
export function npmStartFlags(): string[] {
  const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const match = /^node bin\/videotask\.js mock(?:\s+(.*))?$/.exec(scripts.start.trim());
  if (match === null)
    throw new Error(
      `package.json's start script is not "node bin/videotask.js mock …": ${scripts.start}`,
    );
  return match[1]?.split(/\s+/) ?? [];
}

/**
 * The block as this checkout runs it. VIDEOTASK_BASE_URL stands in for the commands' default address,
 * except for `contract`, which without --base-url starts a mock of its own; `npx videotask` runs the
 * CLI bundled from this checkout's sources (test/helpers/built-cli.ts).
 */
export function localized(block: Block, url: string): string {
  let text = block.text.replaceAll(DOCUMENTED_URL, url);
  if (block.lang === 'sh') {
    const bin = `node ${JSON.stringify(videotaskCli())}`;
    return text
      .replaceAll('npx videotask contract', `env -u VIDEOTASK_BASE_URL ${bin} contract`)
      .replaceAll('npx videotask', bin);
  }
  for (const [name, path] of Object.entries(PACKAGE_ENTRIES))
    text = text.replaceAll(`from '${name}'`, `from ${JSON.stringify(path)}`);
  return text;
}

/** README.md and every docs/*.md, as paths relative to the root. */
export function docFiles(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

export interface Block {
  /** e.g. `README.md:42`, the line of the opening fence. */
  readonly where: string;
  readonly file: string;
  /** The first word of the info string: `sh`, `ts`, `text`, … (empty when none). */
  readonly lang: string;
  /** The rest of the info string: `runnable`, `template`, or nothing. */
  readonly marker: string;
  readonly text: string;
  /** Flags from `<!-- doc-test: mock FLAGS -->` on the line before the fence. */
  readonly mockFlags: readonly string[];
}

const FENCE = /^\s*```(\S*)\s*(.*)$/;
const MOCK_COMMENT = /^<!--\s*doc-test:\s*mock\s+(.*?)\s*-->$/;

/** Every fenced block of one file. */
export function blocksOf(file: string): Block[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i] ?? '');
    if (!open) continue;
    const end = lines.findIndex((line, j) => j > i && /^\s*```\s*$/.test(line));
    if (end < 0) throw new Error(`${file}:${i + 1}: a fence that never closes`);
    const comment = MOCK_COMMENT.exec((lines[i - 1] ?? '').trim());
    blocks.push({
      where: `${file}:${i + 1}`,
      file,
      lang: open[1] ?? '',
      marker: open[2] ?? '',
      text: lines.slice(i + 1, end).join('\n') + '\n',
      mockFlags: comment?.[1]?.split(/\s+/) ?? [],
    });
    i = end;
  }
  return blocks;
}

/** The text of a file outside its fenced blocks and inline code, where links live. */
export function proseOf(file: string): string {
  return withoutFences(file).replace(/`[^`\n]*`/g, '');
}

function withoutFences(file: string): string {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return text.replace(/^\s*```[^\n]*\n[\s\S]*?^\s*```\s*$/gm, '');
}

/** Relative link targets of a file (`path`, `path#anchor`, `#anchor`), web addresses left out. */
export function relativeLinks(file: string): string[] {
  const targets = [...proseOf(file).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] ?? '');
  return targets.filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to `-`. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors a Markdown file offers, numbered as GitHub numbers repeated headings. */
export function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of withoutFences(file).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(match[1] ?? '');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

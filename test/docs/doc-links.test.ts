import { existsSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorsOf, blocksOf, docFiles, relativeLinks, ROOT } from './doc-blocks.ts';

/**
 * The user docs hold together: every relative link and #anchor resolves, every shell block says how
 * it is tested, and the README stays a short entry page (issue 16). Running the blocks:
 * doc-commands.e2e.test.ts.
 */

/** Shell blocks not run (placeholders, endless or minutes long): new commands should come runnable. */
const MAX_TEMPLATES = 19;

const FILES = docFiles();
/** Other guides in the tree whose links must hold too. */
const OTHER_GUIDES = ['bench/README.md', 'contracts/README.md', 'mocks/media/README.md'];

/** Where a link in `file` points, relative to the root, and its anchor. */
function resolveLink(file: string, target: string): { path: string; anchor: string | undefined } {
  const [path = '', anchor] = target.split('#');
  const resolved = path === '' ? file : normalize(join(dirname(file), decodeURI(path)));
  return { path: relative('.', resolved).replace(/\/$/, ''), anchor };
}

describe.each([...FILES, ...OTHER_GUIDES])('%s', (file) => {
  it('links only to files and headings that exist', () => {
    const broken: string[] = [];
    for (const target of relativeLinks(file)) {
      const { path, anchor } = resolveLink(file, target);
      if (!existsSync(join(ROOT, path))) {
        broken.push(`${target}: no file ${path}`);
        continue;
      }
      if (anchor === undefined) continue;
      if (!path.endsWith('.md'))
        broken.push(`${target}: an anchor into a file that is not Markdown`);
      else if (!anchorsOf(path).has(anchor))
        broken.push(`${target}: no heading #${anchor} in ${path}`);
    }
    expect(broken).toEqual([]);
  });
});

describe.each(FILES)('%s', (file) => {
  it('marks every shell block runnable or template', () => {
    const shell = blocksOf(file).filter((b) => ['sh', 'bash', 'shell'].includes(b.lang));
    const unmarked = shell.filter((b) => !['runnable', 'template'].includes(b.marker));
    expect(unmarked.map((b) => b.where)).toEqual([]);
  });
});

describe('the docs as a whole', () => {
  it(`keep the shell blocks that are not run at ${MAX_TEMPLATES} or fewer`, () => {
    const templates = FILES.flatMap(blocksOf).filter((b) => b.marker === 'template');
    expect(templates.length, templates.map((b) => b.where).join('\n')).toBeLessThanOrEqual(
      MAX_TEMPLATES,
    );
  });

  it('keep README.md under 12 KB, an entry page', () => {
    expect(statSync(join(ROOT, 'README.md')).size).toBeLessThan(12 * 1024);
  });

  it('are all linked from README.md', () => {
    const linked = new Set(relativeLinks('README.md').map((t) => resolveLink('README.md', t).path));
    expect(FILES.filter((f) => f !== 'README.md' && !linked.has(f))).toEqual([]);
  });
});

/**
 * The house's import graph (issue 36 item 2), read with the TypeScript compiler's own import scan
 * (`ts.preProcessFile`: static imports, `import type`, re-exports and `import()` alike, since a type
 * import is a dependency too: decisions/033). Relative imports become edges between files, as paths
 * from the repository's root; `node:` and package imports are kept per file.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export interface ImportGraph {
  /** Each file's relative imports, resolved to repository paths (`mocks/core/clock.ts`). */
  readonly edges: ReadonlyMap<string, readonly string[]>;
  /** Each file's imports of Node's built-in modules (`node:fs`, `fs`). */
  readonly builtins: ReadonlyMap<string, readonly string[]>;
}

const NODE_BUILTINS = new Set(builtinModules);

const isBuiltin = (specifier: string): boolean =>
  specifier.startsWith('node:') || NODE_BUILTINS.has(specifier.split('/')[0]!);

function sourceFiles(root: string, folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .map((name) => join(folder, name));
}

/** The graph of every `.ts` file under `folders` (paths relative to `root`). */
export function readImportGraph(root: string, folders: readonly string[]): ImportGraph {
  const edges = new Map<string, string[]>();
  const builtins = new Map<string, string[]>();
  for (const file of folders.flatMap((folder) => sourceFiles(root, folder))) {
    const text = readFileSync(join(root, file), 'utf8');
    const specifiers = ts.preProcessFile(text, true, true).importedFiles.map((i) => i.fileName);
    edges.set(
      file,
      specifiers
        .filter((s) => s.startsWith('.'))
        .map((s) => relative(root, resolve(root, dirname(file), s))),
    );
    builtins.set(file, specifiers.filter(isBuiltin));
  }
  return { edges, builtins };
}

/**
 * The circles of a directed graph: its strongly connected components of more than one node
 * (Tarjan's algorithm), each listed in the order the walk met them.
 */
export function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.reverse());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

const within = (folder: string, other: string): boolean =>
  other === folder || other.startsWith(`${folder}/`);

/**
 * The folders' graph: an edge from a file's folder to the folder of a file it imports, left out
 * between a folder and one inside it (`mocks/core` and `mocks/core/routes` are one concept and its
 * parts). What remains are edges between sibling concepts, which must not run in a circle either
 * (`src/client` ↔ `src/redaction`).
 */
export function folderGraph(edges: ReadonlyMap<string, readonly string[]>): Map<string, string[]> {
  const folders = new Map<string, Set<string>>();
  for (const [file, imports] of edges) {
    const from = dirname(file);
    const targets = folders.get(from) ?? new Set<string>();
    folders.set(from, targets);
    for (const to of imports.map(dirname))
      if (!within(from, to) && !within(to, from)) targets.add(to);
  }
  return new Map([...folders].map(([folder, targets]) => [folder, [...targets].sort()]));
}

/** Every file reachable from `roots` by imports, the roots included. */
export function reachable(
  edges: ReadonlyMap<string, readonly string[]>,
  roots: readonly string[],
): Set<string> {
  const seen = new Set<string>();
  const queue = [...roots];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (seen.has(file) || !edges.has(file)) continue;
    seen.add(file);
    queue.push(...edges.get(file)!);
  }
  return seen;
}

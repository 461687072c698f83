/**
 * The layering is a test, not a hope (issue 36 item 2; docs/architecture.md "Layers"): imports point
 * down `cli → proxy → contracts → mocks → src → src/generated`, `contracts/` never imports `mocks/`,
 * the browser-safe parts load no Node built-in, and no file or sibling folder sits in an import
 * circle. Reads every source file's imports (about a second).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { circles, folderGraph, reachable, readImportGraph } from './import-graph.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const graph = readImportGraph(ROOT, ['src', 'mocks', 'contracts', 'proxy', 'cli']);

/** The layers from the top; a file may import its own layer and those below it. */
const LAYERS = ['cli', 'proxy', 'contracts', 'mocks', 'src', 'src/generated', 'spec'] as const;
type Layer = (typeof LAYERS)[number];

const layerOf = (file: string): Layer =>
  file.startsWith('src/generated/') ? 'src/generated' : (file.split('/')[0] as Layer);

/** Edges the order allows that a layer still may not make. */
const FORBIDDEN: readonly { from: string; to: string; why: string }[] = [
  { from: 'contracts/', to: 'mocks/', why: 'the contract engine judges any deployment' },
  { from: 'mocks/core/', to: 'mocks/node/', why: 'the core is environment-neutral' },
  { from: 'mocks/core/', to: 'mocks/msw/', why: 'hosts adapt the core, never the reverse' },
  { from: 'mocks/core/', to: 'mocks/defects/', why: 'defects wrap the core (decisions/029)' },
];

/** What runs in a browser: the client's entry and the mock's neutral entry, and all they load. */
const BROWSER_ROOTS = [...graph.edges.keys()].filter(
  (file) =>
    file === 'src/index.ts' ||
    file === 'mocks/neutral.ts' ||
    file.startsWith('src/client/') ||
    file.startsWith('mocks/core/') ||
    file.startsWith('mocks/msw/'),
);

const edgeList = (): [string, string][] =>
  [...graph.edges].flatMap(([from, imports]) => imports.map((to): [string, string] => [from, to]));

describe('the import graph', () => {
  it('reads every layer of code', () => {
    for (const layer of LAYERS.filter((name) => name !== 'spec'))
      expect(
        [...graph.edges.keys()].some((file) => layerOf(file) === layer),
        layer,
      ).toBe(true);
  });

  it('has no import circle between files', () => {
    expect(circles(graph.edges)).toEqual([]);
  });

  it('has no import circle between sibling folders', () => {
    expect(circles(folderGraph(graph.edges))).toEqual([]);
  });

  it('points down the layers', () => {
    const upward = edgeList()
      .filter(([from, to]) => LAYERS.indexOf(layerOf(to)) < LAYERS.indexOf(layerOf(from)))
      .map(([from, to]) => `${from} → ${to}`);
    expect(upward).toEqual([]);
  });

  it('makes no edge a layer may not make', () => {
    const broken = edgeList().flatMap(([from, to]) =>
      FORBIDDEN.filter((rule) => from.startsWith(rule.from) && to.startsWith(rule.to)).map(
        (rule) => `${from} → ${to} (${rule.why})`,
      ),
    );
    expect(broken).toEqual([]);
  });

  it('loads no Node built-in in what runs in a browser', () => {
    const loaded = reachable(graph.edges, BROWSER_ROOTS);
    const nodeImports = [...loaded].flatMap((file) =>
      (graph.builtins.get(file) ?? []).map((builtin) => `${file} imports ${builtin}`),
    );
    expect(nodeImports).toEqual([]);
  });
});

describe('the scan itself', () => {
  it('finds a circle and names its files', () => {
    const edges = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(circles(edges)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });

  it('leaves a folder and its own parts out of the folders graph', () => {
    const edges = new Map([
      ['core/a.ts', ['core/routes/b.ts', 'client/c.ts']],
      ['core/routes/b.ts', ['core/a.ts']],
      ['client/c.ts', ['core/a.ts']],
    ]);
    expect(folderGraph(edges)).toEqual(
      new Map([
        ['core', ['client']],
        ['core/routes', []],
        ['client', ['core']],
      ]),
    );
  });
});

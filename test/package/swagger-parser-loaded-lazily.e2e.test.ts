import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

// Found by the packaging test's Jest row (issue 13): `import … from 'videotask'` loaded swagger-parser,
// which require()s an ES module (json-schema-ref-parser). Jest's module system refuses that on Node
// < 24.9, so every Jest test file importing videotask or videotask/mocks failed before running.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Imports ENTRY in a fresh Node and says whether swagger-parser got loaded (it is CommonJS: require.cache). */
const PROBE = `
const entry = process.argv[1];
await import(entry);
const { createRequire } = await import('node:module');
const cache = Object.keys(createRequire(import.meta.url).cache);
console.log(JSON.stringify(cache.filter((path) => path.includes('swagger-parser'))));
`;

async function swaggerParserFilesLoadedBy(entry: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '--eval', PROBE, `${ROOT}${entry}`],
    { cwd: ROOT },
  );
  return JSON.parse(stdout) as string[];
}

it.each(['src/index.ts', 'src/node/index.ts', 'src/spec/node.ts', 'mocks/index.ts'])(
  'does not load swagger-parser when %s is imported',
  async (entry) => {
    expect(await swaggerParserFilesLoadedBy(entry)).toEqual([]);
  },
);

it('still validates a spec file with swagger-parser, loading it on the first call', async () => {
  const { loadSpecFile, SERVICE_SPEC_PATH } = await import('../../src/spec/load-spec-file.ts');
  const spec = await loadSpecFile(SERVICE_SPEC_PATH);
  expect(spec['x-lifecycle']).toBeDefined();
});

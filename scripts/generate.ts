/**
 * `npm run generate`: validates both specs with swagger-parser, writes their dereferenced JSON and
 * their TypeScript types (openapi-typescript --enum-values) to src/generated/, embeds the sample
 * video's bytes in mocks/media/sample-video.ts (the mock's core reads no files: it runs in a browser),
 * writes what the typed client needs of the service spec as src/generated/client-contract.ts
 * (scripts/client-contract.ts), every operation of both specs as the route table src/generated/routes.ts
 * (scripts/routes-module.ts), and writes the statement table (spec/statements.yaml, checked entry by
 * entry) as src/generated/statements.json and as its page for readers, docs/statements.md, and the
 * freedom table (spec/freedoms.yaml, checked against spec/freedoms.schema.json) as src/generated/freedoms.json.
 * `npm run generate -- --check`: writes nothing, exits 1 naming every committed file that is stale.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { load as loadYaml } from 'js-yaml';
import { createHash } from 'node:crypto';
import { clientContractModule } from './client-contract.ts';
import { routesModule } from './routes-module.ts';
import { writeTextAtomicallySync } from '../src/node/atomic-file.ts';
import type { OpenApiDocument } from '../src/spec/spec-types.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const check = process.argv.includes('--check');
const outDir = join(root, 'src/generated');
const work = mkdtempSync(join(tmpdir(), 'videotask-generate-'));
const bin = join(root, 'node_modules/.bin/openapi-typescript');
const STATEMENTS_YAML = 'spec/statements.yaml';
const FREEDOMS_YAML = 'spec/freedoms.yaml';

const specs = [
  { yaml: 'spec/openapi.yaml', base: 'openapi' },
  { yaml: 'spec/mock-control.yaml', base: 'mock-control' },
];

/** Writes `fresh` to `target` when it differs (or, with --check, counts it stale). */
function update(target: string, fresh: string, stale: string[]): void {
  const current = existsSync(target) ? readFileSync(target, 'utf8') : undefined;
  if (current === fresh) return;
  if (check) stale.push(relative(root, target));
  else {
    writeTextAtomicallySync(target, fresh);
    console.log(`wrote ${relative(root, target)}`);
  }
}

/** The sample video as a module: base64 bytes and their SHA-256, for mocks/core/http/media.ts. */
function sampleVideoModule(): string {
  const bytes = readFileSync(join(root, 'mocks/media/sample.mp4'));
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return [
    '// Generated from mocks/media/sample.mp4 by `npm run generate`; do not edit.',
    '',
    `/** The sample video (${bytes.length} bytes), base64. */`,
    'export const SAMPLE_VIDEO_BASE64 =',
    `  '${bytes.toString('base64')}';`,
    '',
    '/** Its SHA-256, hex. */',
    `export const SAMPLE_VIDEO_SHA256 = '${sha256}';`,
    '',
  ].join('\n');
}

/** spec/freedoms.yaml as JSON, checked against its schema (decisions/042). */
async function freedomsJson(): Promise<string> {
  const { readFreedoms } = await import('../src/spec/freedoms-table.ts');
  const yaml = loadYaml(readFileSync(join(root, FREEDOMS_YAML), 'utf8')) as Record<string, unknown>;
  try {
    readFreedoms(yaml);
  } catch (error) {
    throw new Error(`${FREEDOMS_YAML}: ${(error as Error).message}`, { cause: error });
  }
  const json = { 'x-generated': `from ${FREEDOMS_YAML} by npm run generate; do not edit`, ...yaml };
  return `${JSON.stringify(json, null, 2)}\n`;
}

/** spec/statements.yaml as JSON, each entry checked, and as the page docs/statements.md. */
async function statementFiles(): Promise<{ json: string; page: string }> {
  const { readStatements } = await import('../src/spec/statements-table.ts');
  let statements;
  try {
    statements = readStatements(loadYaml(readFileSync(join(root, STATEMENTS_YAML), 'utf8')));
  } catch (error) {
    throw new Error(`${STATEMENTS_YAML}: ${(error as Error).message}`, { cause: error });
  }
  const json = {
    'x-generated': `from ${STATEMENTS_YAML} by npm run generate; do not edit`,
    statements,
  };
  // Loaded once the service spec's JSON is written: the page reads the checks' basis from it.
  const { renderStatementPage } = await import('../contracts/statement-page.ts');
  const { selfProofCases } = await import('../cli/self-proof-cases.ts');
  const document = readFileSync(join(root, 'spec/service-document.md'), 'utf8');
  return {
    json: `${JSON.stringify(json, null, 2)}\n`,
    page: renderStatementPage({ document, statements, cases: selfProofCases() }),
  };
}

try {
  const stale: string[] = [];
  update(join(root, 'mocks/media/sample-video.ts'), sampleVideoModule(), stale);
  const documents: { yaml: string; document: OpenApiDocument }[] = [];
  for (const { yaml, base } of specs) {
    const path = join(root, yaml);
    const api = await SwaggerParser.validate(path).catch((error: Error) => {
      throw new Error(`${yaml} is not a valid OpenAPI document: ${error.message}`);
    });
    const dereferenced = await SwaggerParser.dereference(api);
    const json = {
      'x-generated': `from ${yaml} by npm run generate; do not edit`,
      ...dereferenced,
    };
    writeFileSync(join(work, `${base}.json`), `${JSON.stringify(json, null, 2)}\n`);
    execFileSync(bin, [path, '--enum-values', '-o', join(work, `${base}.ts`)], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    for (const file of [`${base}.json`, `${base}.ts`])
      update(join(outDir, file), readFileSync(join(work, file), 'utf8'), stale);
    const document = dereferenced as unknown as OpenApiDocument;
    documents.push({ yaml, document });
    if (base === 'openapi')
      update(join(outDir, 'client-contract.ts'), clientContractModule(document, yaml), stale);
  }
  update(join(outDir, 'routes.ts'), routesModule(documents), stale);
  const { json, page } = await statementFiles();
  update(join(outDir, 'statements.json'), json, stale);
  update(join(root, 'docs/statements.md'), page, stale);
  update(join(outDir, 'freedoms.json'), await freedomsJson(), stale);
  if (stale.length > 0) {
    console.error(
      `Generated files are stale: ${stale.join(', ')}. Run \`npm run generate\` and commit the result.`,
    );
    process.exitCode = 1;
  } else if (check) console.log('generated files are up to date');
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}

/**
 * `npm run build` (and `prepack`): compiles the library and the CLI to dist/ with tsc, mirroring the
 * source tree (dist/src, dist/mocks, dist/contracts, dist/cli), then copies every file the compiled code
 * reads relative to itself (`new URL('../x', import.meta.url)`) to the same relative place under dist/.
 * Swagger UI's four files for the /docs page are vendored into dist/vendor/swagger-ui/ with its licence, so
 * the package needs no swagger-ui-dist (12 MB and a telemetry postinstall). Starts from an empty dist/, so
 * nothing of an earlier build survives, and fails if a file package.json's `exports` names (`videotask`,
 * `videotask/node`, `videotask/spec`, `videotask/mocks`, …) was not built. decisions/011-build-and-package.md,
 * decisions/026-lean-client.md.
 */
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const tsc = join(root, 'node_modules/typescript/bin/tsc');
/** What mocks/node/http/docs-page.ts serves of swagger-ui-dist, and the licence that must travel with it. */
const SWAGGER_UI_FILES = [
  'swagger-ui-bundle.js',
  'swagger-ui.css',
  'favicon-16x16.png',
  'favicon-32x32.png',
  'LICENSE',
  'NOTICE',
];

/** `new URL('./x' or '../x', import.meta.url)` with a literal path: a file read at run time. */
const RELATIVE_URL = /new URL\(\s*(['"])(\.\.?\/[^'"]+)\1\s*,\s*import\.meta\.url\s*\)/g;

function filesEndingWith(suffix: string): string[] {
  return readdirSync(dist, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(suffix))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** tsc re-indents the JSON modules it copies (the spec grows from 380 to 560 KB): store them compact. */
function compactJson(): void {
  for (const file of filesEndingWith('.json'))
    writeFileSync(file, JSON.stringify(JSON.parse(readFileSync(file, 'utf8'))));
}

/** Each run-time file the compiled code reads, as a path relative to the package root. */
function runtimeAssets(): Set<string> {
  const assets = new Set<string>();
  for (const file of filesEndingWith('.js')) {
    for (const [, , path] of readFileSync(file, 'utf8').matchAll(RELATIVE_URL)) {
      const target = relative(dist, join(dirname(file), path!));
      if (target.startsWith('..'))
        throw new Error(`${relative(root, file)} reads ${path}, outside dist/`);
      assets.add(target);
    }
  }
  return assets;
}

function vendorSwaggerUi(): void {
  const from = join(root, 'node_modules/swagger-ui-dist');
  const to = join(dist, 'vendor/swagger-ui');
  mkdirSync(to, { recursive: true });
  for (const name of SWAGGER_UI_FILES) copyFileSync(join(from, name), join(to, name));
}

/** Every file path in package.json's `exports`, conditions included. */
function exportedFiles(): string[] {
  const { exports } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    exports: Record<string, unknown>;
  };
  const paths = (node: unknown): string[] =>
    typeof node === 'string' ? [node] : Object.values(node as object).flatMap(paths);
  return [...new Set(paths(exports))];
}

rmSync(dist, { recursive: true, force: true });
for (const project of ['tsconfig.build.json', 'tsconfig.build-cli.json'])
  execFileSync(process.execPath, [tsc, '-p', join(root, project)], { stdio: 'inherit' });
compactJson();
vendorSwaggerUi();
for (const asset of runtimeAssets()) {
  if (existsSync(join(dist, asset))) continue;
  if (!existsSync(join(root, asset)))
    throw new Error(`the build reads ${asset} at run time, but there is no such file to copy`);
  mkdirSync(dirname(join(dist, asset)), { recursive: true });
  copyFileSync(join(root, asset), join(dist, asset));
}
const missing = exportedFiles().filter((file) => !existsSync(join(root, file)));
if (missing.length > 0)
  throw new Error(`package.json exports files the build did not write: ${missing.join(', ')}`);

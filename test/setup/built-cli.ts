/**
 * The `videotask` command the tests start: the CLI bundled once per test run with esbuild from the
 * sources as they are (decisions/060). `node bin/videotask.js` in a checkout loads ~330 TypeScript
 * modules through tsx's loader, 0.27 s of CPU for `--help` and 0.64 s for `mock --list-defects`; the
 * bundle 0.07 s and 0.18 s. The e2e lane starts several hundred such processes.
 *
 * Built by test/setup/built-cli.ts (vitest's globalSetup) before any test file runs, so it is never
 * stale: the bytes come from the sources of this run. It goes to node_modules/.cache/videotask-cli/
 * HASH/ (HASH of the bundle's bytes: two runs of the same sources share it, a run never sees another
 * sources' bundle), where the project's node_modules resolve its dependencies, which stay outside it.
 * Every module keeps its own `import.meta.url` (the source file's), so the files the CLI reads beside
 * its sources (the spec, package.json, Swagger UI) are the ones `bin/videotask.js` reads. Dynamic
 * imports stay chunks of their own, loaded when a command asks, as they are from the sources.
 *
 * Users run bin/videotask.js, which this does not change; test/cli/bin-from-sources.e2e.test.ts runs it
 * through tsx in the checkout, and the package tests run it from `npm pack`. The tests find the bundle
 * with `videotaskCli()` (test/helpers/built-cli.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
} from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import type { TestProject } from 'vitest/node';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Where the bundles go: inside the project, so that its node_modules resolve their imports. */
export const BUILT_CLI_CACHE = join(ROOT, 'node_modules', '.cache', 'videotask-cli');
/** The entry's name: `ps` shows `videotask.js mock …` for a mock and its workers, as from bin/. */
const ENTRY = 'videotask.js';
/** A bundle unused this long (by its folder's time) is removed when a later run builds. */
const KEEP_UNUSED_MS = 24 * 60 * 60_000;

/**
 * Each source module's `import.meta.url` written in as the source file's URL: what it reads relative to
 * itself, and `import.meta.url.endsWith('.ts')` (the CLI's test for "run from the sources"), answer as
 * they do under tsx.
 */
const sourceUrls: Plugin = {
  name: 'source-import-meta-url',
  setup(bundle) {
    bundle.onLoad({ filter: /\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replaceAll(
        'import.meta.url',
        JSON.stringify(pathToFileURL(args.path).href),
      ),
      loader: 'ts',
    }));
  },
};

/** Bundles cli/run.ts as it is now and returns the path of the entry file to run with `node`. */
export async function buildCli(): Promise<string> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: { videotask: 'cli/run.ts' },
    outdir: 'bundle',
    write: false,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    plugins: [sourceUrls],
    logLevel: 'silent',
  });
  const files = result.outputFiles
    .map((file) => ({ name: relative(join(ROOT, 'bundle'), file.path), bytes: file.contents }))
    .sort((a, b) => a.name.localeCompare(b.name));
  // node_modules/ ends the search for a package.json's "type": this one makes the chunks ES modules.
  files.push({ name: 'package.json', bytes: Buffer.from('{ "type": "module" }\n') });
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${file.name}\0${file.bytes.length}\0`).update(file.bytes);
  const folder = join(BUILT_CLI_CACHE, hash.digest('hex').slice(0, 16));
  mkdirSync(BUILT_CLI_CACHE, { recursive: true });
  if (existsSync(join(folder, ENTRY))) utimesSync(folder, new Date(), new Date());
  else await publish(folder, files);
  removeUnused(folder);
  return join(folder, ENTRY);
}

/** Writes the files into a folder of their own and renames it into place: whole or not at all. */
async function publish(
  folder: string,
  files: readonly { name: string; bytes: Uint8Array }[],
): Promise<void> {
  const temp = `${folder}.${randomBytes(6).toString('hex')}.part`;
  try {
    for (const file of files) {
      mkdirSync(dirname(join(temp, file.name)), { recursive: true });
      await writeFile(join(temp, file.name), file.bytes);
    }
    renameSync(temp, folder);
  } catch (error) {
    // Another run published the same bytes first: theirs serves.
    if (!existsSync(join(folder, ENTRY))) throw error;
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

/** Removes the bundles of other sources that no run has built for a day (their folders' time). */
function removeUnused(current: string): void {
  const now = Date.now();
  for (const name of readdirSync(BUILT_CLI_CACHE)) {
    const path = join(BUILT_CLI_CACHE, name);
    // Another run may remove it between the listing and this look: then there is nothing to do.
    const unused = statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? now;
    if (path !== current && now - unused > KEEP_UNUSED_MS)
      rmSync(path, { recursive: true, force: true });
  }
}

/**
 * vitest's globalSetup (vitest.config.ts): builds the CLI before the first test file and again before
 * each rerun in watch mode, so a test never starts an older CLI than the sources it runs against.
 */
export default async function setup(project: TestProject): Promise<void> {
  project.provide('videotaskCli', await buildCli());
  project.onTestsRerun(async () => project.provide('videotaskCli', await buildCli()));
}

#!/usr/bin/env node
// The `videotask` command. Installed from the package it runs the compiled JavaScript in dist/. In a
// checkout of the repository (cli/run.ts is there; the package never ships cli/) it runs the TypeScript
// sources through tsx, a devDependency, so the tests and `npm start` never see a stale build.
import { existsSync } from 'node:fs';

const sources = new URL('../cli/run.ts', import.meta.url);
if (existsSync(sources)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(sources.href);
} else {
  await import('../dist/cli/run.js');
}

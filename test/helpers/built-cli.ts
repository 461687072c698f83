/**
 * The `videotask` command the e2e tests start in place of bin/videotask.js: the CLI bundled once per
 * test run from the sources as they are (test/setup/built-cli.ts, decisions/060).
 */
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The bundled CLI's entry file (test/setup/built-cli.ts). */
    videotaskCli: string;
  }
}

/** The bundled CLI's entry file: run `node PATH ARGS…` where a user runs `videotask ARGS…`. */
export function videotaskCli(): string {
  const path = inject('videotaskCli');
  if (typeof path !== 'string')
    throw new Error(
      'no bundled videotask CLI: run the tests with vitest.config.ts, whose globalSetup ' +
        '(test/setup/built-cli.ts) builds it',
    );
  return path;
}

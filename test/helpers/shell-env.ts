/**
 * The environment of a fresh shell: this process's, less what npm adds when it runs a script or
 * `npx -c` (`npm_*` variables). A child `npm`/`npx` that inherits them behaves as a script of this
 * repository, or, with `npm_config_call` set, runs that call instead of its own arguments (how the
 * Node 22/24 CI run once failed: test/scripts/nested-npx-clean-env.e2e.test.ts).
 */
export function shellEnv(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const inherited = Object.entries(process.env).filter(
    ([name]) => !name.toLowerCase().startsWith('npm_'),
  );
  return { ...Object.fromEntries(inherited), ...extra };
}

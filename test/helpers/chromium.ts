import { existsSync } from 'node:fs';

/**
 * Debian's chromium, driven by playwright-core (which downloads no browser of its own). `CHROMIUM_PATH`
 * points elsewhere (the regression test of the skip rule points it at nothing).
 */
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** The flags a headless chromium needs on this kind of machine (no sandbox as root, no network chatter). */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/**
 * Whether the browser tests of a file run. Chromium missing is a failure in CI (`CI=true`, where
 * `npm test`'s pretest installs it) and a skip elsewhere, said once per file so nobody mistakes it for
 * a pass.
 */
export function browserTestsRun(file: string): boolean {
  if (existsSync(CHROMIUM) || process.env['CI'] === 'true') return true;
  console.warn(
    `${file}: skipping the browser tests: ${CHROMIUM} is missing ` +
      '(install it with `sudo apt-get install -y chromium`; in CI, with CI=true, this is a failure)',
  );
  return false;
}

/** Throws the reason when a browser test runs without chromium (in CI). */
export function requireChromium(): void {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `${CHROMIUM} is missing: run scripts/ensure-chromium.sh (npm test runs ` +
        `it as pretest) or apt-get install chromium`,
    );
}

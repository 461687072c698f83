import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeProfileFile } from '../../cli/profile-file.ts';
import { readProfile } from '../../src/profile/index.ts';

/**
 * A `drift` crash QA reported: `drift --learn-dir DIR` with DIR not made yet printed "no difference",
 * then an ENOENT stack trace, and exited 1 — which CI reads as "differences". `--report-dir` makes its
 * folder; writing a profile now does too. And an error a command did not expect exits 2 (the CLI's
 * "could not run") with its message, never 1 and never a stack trace.
 */

const OBSERVED = readProfile(
  JSON.parse(readFileSync(new URL('../../mocks/profiles/observed.json', import.meta.url), 'utf8')),
);

/** The CLI's command list with one command that meets an error it did not expect. */
const brokenCommands = () => ({
  commands: [
    {
      name: 'broken',
      summary: 'a command that meets an error it did not expect',
      load: () =>
        Promise.resolve({
          name: 'broken',
          run: () =>
            Promise.reject(
              new Error("ENOENT: no such file or directory, open '/nowhere/a.profile.json'"),
            ),
        }),
    },
  ],
});

describe('drift --learn-dir DIR with DIR not made yet', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    vi.restoreAllMocks();
  });

  it('makes the folder and writes the profile there', async () => {
    const root = mkdtempSync(join(tmpdir(), 'learn-dir-'));
    dirs.push(root);
    const file = join(root, 'not', 'made', 'a.profile.json');
    await writeProfileFile(file, OBSERVED);
    expect(existsSync(file)).toBe(true);
    expect(readProfile(JSON.parse(readFileSync(file, 'utf8'))).target).toEqual(OBSERVED.target);
  });

  it('an unexpected error exits 2 with its message, no stack trace', async () => {
    // The unit lane shares a worker's modules (isolate: false): main.ts is loaded afresh with the
    // mocked command list, and the mock is taken back after, so that no later file in the worker
    // meets a CLI whose only command is `broken` (a hoisted vi.mock stayed: cli-errors-name-flags
    // then failed whenever it ran after this file).
    vi.doMock('../../cli/commands.ts', brokenCommands);
    vi.resetModules();
    try {
      const { main } = await import('../../cli/main.ts');
      const printed: string[] = [];
      vi.spyOn(console, 'error').mockImplementation((text: string) => void printed.push(text));
      expect(await main(['broken'])).toBe(2);
      expect(printed.join('\n')).toBe(
        "videotask broken: ENOENT: no such file or directory, open '/nowhere/a.profile.json'",
      );
    } finally {
      vi.doUnmock('../../cli/commands.ts');
      vi.resetModules();
    }
  });
});

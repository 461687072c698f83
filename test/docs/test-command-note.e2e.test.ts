import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectQuoted } from './quoted-figures.ts';

// Issue 35 item 5: `npm test` installs Chromium system-wide (Debian's package through apt-get, when
// run as root) before any test, and README did not say so. It now says so next to the test command,
// with what happens where it cannot; each claim of that note is checked against what does it.

const README = readFileSync('README.md', 'utf8');
const setUp = README.slice(README.indexOf('## Set up'), README.indexOf('## Quick start'));
const folder = mkdtempSync(join(tmpdir(), 'videotask-chromium-note-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("README's note beside `npm test`", () => {
  it('keeps exactly two set-up commands, the note right after the test command', () => {
    const commands = [...setUp.matchAll(/```sh template\n([^`]*)```/g)].map((m) => m[1]!.trim());
    expect(commands).toEqual(['npm install && npm start', 'npm install && npm test']);
    const note = setUp.slice(setUp.indexOf('npm install && npm test'));
    expect(note).toMatch(/\*\*`npm test` first installs Chromium system-wide\*\*/);
    expect(note).toMatch(/`scripts\/ensure-chromium\.sh`/);
    expect(note).toMatch(/Where it cannot \(not root, no apt-get\)/);
  });

  it('says what the pretest does: package.json runs the script, which installs chromium with apt-get', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts['pretest']).toBe('bash scripts/ensure-chromium.sh');
    expect(readFileSync('scripts/ensure-chromium.sh', 'utf8')).toMatch(
      /apt-get install -y -qq chromium/,
    );
  });

  it("quotes the package's installed size as apt-cache gives it", (ctx) => {
    const show = spawnSync('apt-cache', ['show', 'chromium'], { encoding: 'utf8' });
    const kib = /^Installed-Size: (\d+)$/m.exec(show.stdout ?? '')?.[1];
    if (kib === undefined) ctx.skip(); // no apt-cache, or it knows no chromium: nothing to compare
    expectQuoted('README.md', /\((\d+) MiB on Debian 12/, Math.floor(Number(kib) / 1024));
  });

  it('as root, prints the size before it installs through apt-get', (ctx) => {
    if (process.getuid?.() !== 0) ctx.skip(); // the install path is root's
    // apt-get and apt-cache stand-ins that record what they were asked.
    const log = join(folder, 'apt.log');
    for (const [name, body] of [
      ['apt-get', `echo "apt-get $*" >> ${log}`],
      ['apt-cache', 'echo "Installed-Size: 290280"'],
    ] as const) {
      writeFileSync(join(folder, name), `#!/bin/sh\n${body}\n`);
      chmodSync(join(folder, name), 0o755);
    }
    const run = spawnSync('bash', ['scripts/ensure-chromium.sh'], {
      encoding: 'utf8',
      env: {
        PATH: `${folder}:${process.env['PATH'] ?? ''}`,
        CHROMIUM_PATH: '/nonexistent/chromium',
      },
    });
    expect(run.stderr).toMatch(
      /installing Debian's chromium package system-wide \(apt-get; 283 MiB installed, plus its dependencies\)/,
    );
    expect(readFileSync(log, 'utf8')).toMatch(/apt-get install -y -qq chromium/);
    expect(run.status).toBe(1); // the stand-in installed nothing: said, not hidden
    expect(run.stderr).toMatch(/still missing/);
  });
});

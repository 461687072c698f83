import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual, promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../contracts/checks/definitions.ts';
import { listDefects, resolveDefects } from '../../mocks/defects/catalog.ts';
import { ACCESS_CASES } from './defect-cases/access.ts';
import { lifecycle } from './defect-cases/client.ts';
import { GATEWAY_CASES } from './defect-cases/gateway.ts';
import { LIFECYCLE_CASES } from './defect-cases/lifecycle.ts';
import { ROUTE_CASES } from './defect-cases/routes.ts';
import { session, type Case } from './defect-cases/session.ts';
import { TASK_OBJECT_CASES } from './defect-cases/task-object.ts';
import { WRAPPER_CASES } from './defect-cases/wrapper.ts';
import { videotaskCli } from '../helpers/built-cli.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHECK_IDS = new Set<string>(Object.values(CHECKS).map((c) => c.id));
/** Every defect's case: which steps of the scripted session it changes, and the violation it shows. */
const CASES: readonly Case[] = [
  ...TASK_OBJECT_CASES,
  ...ROUTE_CASES,
  ...LIFECYCLE_CASES,
  ...WRAPPER_CASES,
  ...ACCESS_CASES,
  ...GATEWAY_CASES,
];

describe('defect catalogue', () => {
  const defects = listDefects();

  it('has a case in this table for every defect, and only those', () => {
    expect(CASES.map(([name]) => name).sort()).toEqual(defects.map((d) => d.name).sort());
  });

  it('has at least 15 defects with unique kebab-case names', () => {
    expect(defects.length).toBeGreaterThanOrEqual(15);
    const names = defects.map((d) => d.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it.each(defects.map((d) => [d.name, d] as const))(
    '%s names rules (or checks) that exist and a one-line description',
    (_name, defect) => {
      expect(defect.breaks.length + (defect.checks?.length ?? 0)).toBeGreaterThan(0);
      for (const id of defect.breaks)
        expect(lifecycle.rules.has(id), `unknown rule ${id}`).toBe(true);
      for (const id of defect.checks ?? [])
        expect(CHECK_IDS.has(id), `unknown check ${id}`).toBe(true);
      expect(defect.description).toMatch(/^[^\n]{10,140}$/);
      expect(defect.before ?? defect.after).toBeDefined();
    },
  );

  it('refuses an unknown defect naming --list-defects', () => {
    expect(() => resolveDefects(['nope'])).toThrow(/"nope".*--list-defects/);
  });

  it('lists one line per defect from the CLI and exits 0', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [videotaskCli(), 'mock', '--list-defects'],
      { cwd: ROOT },
    );
    const lines = stdout.trimEnd().split('\n');
    expect(lines.map((line) => /^(\S+) {2,}(\S.*)$/.exec(line)?.slice(1))).toEqual(
      defects.map((d) => [d.name, d.description]),
    );
  });
});

describe('each defect', () => {
  const clean = session([]);

  it('runs a session in which the clean mock keeps the contract it is compared against', () => {
    expect(clean.map((s) => `${s.label}: ${s.response.status}`)).toContain(
      'alice submits an empty prompt: 400',
    );
    expect(new Set(clean.filter((s) => s.task === 'A').map((s) => s.status))).toEqual(
      new Set(['queued', 'in_progress', 'completed']),
    );
    expect(new Set(clean.filter((s) => s.task === 'B').map((s) => s.status))).toEqual(
      new Set(['queued', 'in_progress', 'failed']),
    );
    expect(clean.some((s) => s.status === 'completed' && s.sinceFinishMs! >= 30_000)).toBe(true);
  });

  it.each(CASES)('%s shows its broken behaviour', (_name, _changes, shows) => shows());

  it.each(CASES)('%s changes nothing else in a scripted session', (name, changes) => {
    const broken = session([name]);
    expect(broken.map((s) => s.label)).toEqual(clean.map((s) => s.label));
    const changed = broken
      .filter((s, i) => !isDeepStrictEqual(s.response, clean[i]!.response))
      .map((s) => s.label);
    const expected = clean.filter(changes).map((s) => s.label);
    expect(expected.length, 'the session exercises the defect').toBeGreaterThan(0);
    expect(changed).toEqual(expected);
  });
});

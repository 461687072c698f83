import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  renderDriftMarkdown,
  renderDriftSummary,
  writeDriftReports,
  type Difference,
} from '../../contracts/drift/index.ts';
import { Redactor } from '../../src/redaction/redactor.ts';
import { FULL_MOCK, FULL_TARGET } from './support/in-process.ts';
import { driftInProcess } from './support/learn-in-process.ts';
import { OWN_WAY } from './support/own-way.ts';

// Drift between two deployments, each played by the mock in-process: what differs is listed per step
// and cell, by what it is (status, content type, body shape, headers, timing, lifecycle, delivery).

const own = (name: string) => OWN_WAY.find((d) => d.name === name)!;
const find = (differences: readonly Difference[], partial: Partial<Difference>) =>
  differences.find((d) =>
    Object.entries(partial).every(([k, v]) => d[k as keyof Difference] === v),
  );

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('drift between two deployments', () => {
  it('finds none between two runs of the same deployment', async () => {
    const side = { mock: FULL_MOCK, target: FULL_TARGET };
    const { report } = await driftInProcess(side, side);
    expect(report.differences).toEqual([]);
    expect(report.ok).toBe(true);
    expect(renderDriftSummary(report)).toMatch(/no difference: B answers every step as A does$/);
  });

  it("lists what the gateway's habits change against the document, per step and cell", async () => {
    const { report } = await driftInProcess({ mock: {} }, { mock: { profile: 'observed' } });
    const { differences } = report;
    expect(find(differences, { aspect: 'status', cell: 'getVideo missing owner' })).toMatchObject({
      situation: 'refused',
      a: 'HTTP 404',
      b: 'HTTP 400',
      steps: ['missing task, owner'],
    });
    expect(
      find(differences, {
        aspect: 'body',
        cell: 'getVideo in_progress owner',
        where: 'completed_at',
      }),
    ).toMatchObject({ a: 'absent', b: 'unix-seconds' });
    expect(
      find(differences, { aspect: 'lifecycle', where: 'progress while in_progress' }),
    ).toMatchObject({
      a: 'moving',
      b: 'fixed 50',
    });
    expect(find(differences, { aspect: 'identifiers', where: 'request ID form' })).toBeDefined();
    expect(report.ok).toBe(false);
    expect(renderDriftSummary(report)).toMatch(/\nDRIFT: \d+ differences: \d+ other causes$/);
  });

  it('names a content delivered otherwise', async () => {
    const observed = { mock: { profile: 'observed' as const } };
    const redirect = { mock: { profile: 'observed' as const, contentRedirect: true } };
    const { report } = await driftInProcess(observed, redirect);
    expect(find(report.differences, { aspect: 'content', situation: 'ok' })).toMatchObject({
      cell: 'getVideoContent completed owner',
      where: 'delivery',
      a: 'direct',
      b: 'redirect',
    });
    // The address it leads to answers with its own headers (an ETag the gateway's stream has not).
    const others = report.differences.filter((d) => d.aspect !== 'content');
    expect(others.map((d) => `${d.aspect} ${d.where}`)).toEqual([
      'headers etag',
      'headers etag',
      'headers etag',
    ]);
  });

  it("names a content type and task IDs' form that differ", async () => {
    const defects = [own('own-way-content-type'), own('own-way-task-ids')];
    const { report } = await driftInProcess(
      { mock: { profile: 'observed' } },
      { mock: { profile: 'observed', defects } },
    );
    const { differences } = report;
    expect(
      find(differences, { aspect: 'content-type', cell: 'getVideoContent completed owner' }),
    ).toMatchObject({ a: 'video/mp4', b: 'application/octet-stream' });
    expect(find(differences, { aspect: 'identifiers', where: 'task ID form' })).toMatchObject({
      a: 'task_{alnum:32}',
      b: 'vtsk-{alnum:32}',
    });
  });

  it('with --tier free asks read-only routes only: no task on either side, no lifecycle compared', async () => {
    const free = { tier: 'free' as const };
    const { report } = await driftInProcess(
      { mock: {}, target: free },
      { mock: { defects: [own('own-way-status-codes')] }, target: free },
    );
    expect(report.a.tasksCreated + report.b.tasksCreated).toBe(0);
    expect(report.differences.length).toBeGreaterThan(0);
    for (const d of report.differences) {
      expect(['status', 'body', 'verdict']).toContain(d.aspect);
      expect(d.cell).not.toMatch(/ (queued|in_progress|completed|failed) /);
    }
    expect(find(report.differences, { cell: 'getVideo missing none' })).toMatchObject({
      aspect: 'status',
      a: 'HTTP 401',
      b: 'HTTP 403',
    });
  });

  it('writes its JSON and Markdown reports readable by their owner only, never a key', async () => {
    const { report } = await driftInProcess({ mock: {} }, { mock: { profile: 'observed' } });
    const dir = mkdtempSync(join(tmpdir(), 'videotask-drift-'));
    dirs.push(dir);
    const files = await writeDriftReports(
      report,
      dir,
      new Redactor(['sk-mock-alice', 'sk-mock-bob']),
    );
    expect(files.map((f) => f.slice(dir.length + 1))).toEqual([
      'drift-report.json',
      'drift-report.md',
    ]);
    for (const file of files) {
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const text = readFileSync(file, 'utf8');
      expect(text).not.toContain('sk-mock-alice');
      expect(text).not.toContain('sk-mock-bob');
    }
    const json = JSON.parse(readFileSync(files[0]!, 'utf8')) as typeof report;
    expect(json.differences).toEqual(report.differences);
    expect(renderDriftMarkdown(report)).toMatch(/^# Drift: \d+ differences: \d+ other causes\n/);
    expect(renderDriftMarkdown(report)).toContain(
      '| getVideo · missing · owner · refused | status |  | HTTP 404 | HTTP 400 |',
    );
  });
});

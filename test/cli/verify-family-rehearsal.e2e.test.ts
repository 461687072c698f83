import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sampleVideo } from '../../mocks/core/http/media.ts';
import {
  FAMILY,
  FAST,
  bind,
  escaped,
  modelLine,
  readRecord,
  tasksByModel,
  verifyFamily,
  verifyFamilyFixture,
} from '../helpers/verify-family.ts';

const { mock, freshDir } = verifyFamilyFixture();
const UPDATE_DATE = 'update the verification date of the catalog and of the service document to';

describe('videotask verify-family: the rehearsal on the mock (§9 steps 3–5)', () => {
  it(
    'fails at step 3 against the unbound family (the mock default), with the binding advice and ' +
      'a record, and creates no task',
    async () => {
      const server = await mock();
      const cwd = freshDir('unbound');
      const run = await verifyFamily(server.url, 'sk-mock-vip', FAST, cwd);
      expect(run.code).toBe(1);
      for (const model of FAMILY) {
        const notListed = `/v1/models does not list ${escaped(model)} for this token`;
        expect(run.stdout).toMatch(
          modelLine(model, `FAILED +at step 3 \\(catalog lists the model\\): ${notListed}`),
        );
      }
      expect(run.stdout).toContain(
        'plugin channel (type 61) using the enabled plugin version (1.0.5)',
      );
      expect(run.stdout).toMatch(/3 of 3 model\(s\) failed .*do not update the verification date/);
      expect(server.service.store.size).toBe(0);

      // The default --report-dir is ./verification-records.
      const { run: record, md, raw } = readRecord(join(cwd, 'verification-records'));
      expect(record).toMatchObject({
        kind: 'videotask verify-family',
        baseUrl: server.url,
        apiKey: 'sk-…ip',
        dryRun: false,
        ok: false,
        exitCode: 1,
      });
      expect(record.models.map((m) => m.model)).toEqual(FAMILY);
      for (const m of record.models) {
        expect(m).toMatchObject({
          ok: false,
          taskId: null,
          clientRequestId: null,
          finalStatus: null,
          failedStep: { step: 3, name: 'catalog lists the model' },
        });
        expect(m.steps.map((s) => [s.step, s.outcome])).toEqual([
          [3, 'failed'],
          [3, 'skipped'],
          [4, 'skipped'],
          [4, 'skipped'],
          [4, 'skipped'],
          [4, 'skipped'],
          [5, 'skipped'],
        ]);
        expect(m.steps[1]!.detail).toMatch(/nothing was submitted/);
        expect(m.advice).toMatch(/type 61.*1\.0\.5.*group.*grant the test token the model.*price/);
      }
      expect(md).toMatch(/\*\*failed\*\* for 3 of 3 model\(s\)/);
      expect(md).toMatch(/\*\*Failed at step 3 \(catalog lists the model\)\.\*\*/);
      const bindingAdvice =
        '§9 steps 1–2: bind the video channel to the plugin with a plugin channel';
      expect(md).toMatch(new RegExp(`\\*\\*Next:\\*\\* ${bindingAdvice} \\(type 61\\)`));
      expect(run.stdout + run.stderr + raw + md).not.toContain('sk-mock-vip');
    },
  );

  it('--dry-run checks the catalog only: creates no task and writes nothing', async () => {
    const server = await mock();
    const cwd = freshDir('dry');
    const unbound = await verifyFamily(server.url, 'sk-mock-vip', ['--dry-run'], cwd);
    expect(unbound.code).toBe(1);
    expect(unbound.stdout).toMatch(
      /Dry run: 3 of 3 model\(s\) not listed; nothing was submitted or written/,
    );
    await bind(server);
    const bound = await verifyFamily(server.url, 'sk-mock-vip', ['--dry-run'], cwd);
    expect(bound.code).toBe(0);
    for (const model of FAMILY)
      expect(bound.stdout).toMatch(
        modelLine(model, 'passed +listed by /v1/models \\(dry run: nothing submitted\\)'),
      );
    expect(server.service.store.size).toBe(0);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it(
    'passes once the family is bound (PUT /__mock/family): one task per model, downloaded, ' +
      'checked and recorded',
    async () => {
      const server = await mock();
      await bind(server);
      const cwd = freshDir('bound');
      const reportDir = join(cwd, 'records');
      const run = await verifyFamily(
        server.url,
        'sk-mock-vip',
        ['--report-dir', reportDir, ...FAST],
        cwd,
      );
      expect(run.stderr).not.toMatch(/failed/);
      expect(run.code).toBe(0);
      const { sha256 } = sampleVideo();
      const checked = `6592 bytes, ISO BMFF \\(ftyp\\), sha256 ${sha256}`;
      for (const model of FAMILY)
        expect(run.stdout).toMatch(modelLine(model, `passed +task_\\w{32} completed; ${checked}`));
      expect(run.stdout).toMatch(
        new RegExp(
          `All 3 model\\(s\\) passed: ${UPDATE_DATE} \\d{4}-\\d{2}-\\d{2} \\(§9 step 5\\)`,
        ),
      );

      // Exactly one task per model, each asking for the assumed smallest duration (4 s).
      expect(tasksByModel(server)).toEqual({
        'alt-video-v2': 1,
        'alt-video-v2-fast': 1,
        'alt-video-v2.5': 1,
      });
      expect([...server.service.store.values()].map((t) => t.seconds)).toEqual([4, 4, 4]);

      const { run: record, md, raw } = readRecord(reportDir);
      expect(record).toMatchObject({
        ok: true,
        exitCode: 0,
        settings: { endpoint: 'POST /v1/videos', seconds: 4, pluginName: null },
      });
      expect(record.settings.secondsSource).toMatch(/^assumed: .*§8/);
      const ids = new Set([...server.service.store.values()].map((t) => t.id));
      for (const m of record.models) {
        expect(m).toMatchObject({
          ok: true,
          finalStatus: 'completed',
          bytes: 6592,
          sha256,
          containerSignature: 'ISO BMFF (ftyp)',
          contentType: 'video/mp4',
          errorCode: null,
          failedStep: null,
        });
        expect(ids.has(m.taskId!)).toBe(true);
        expect(m.clientRequestId).toMatch(/^vf-/);
        expect(server.service.submissionsByClientRequestId.get(m.clientRequestId!)).toBe(1);
        for (const t of [m.timings.submitMs, m.timings.toFinalStateMs, m.timings.downloadMs])
          expect(t).toBeGreaterThanOrEqual(0);
        expect(m.steps.map((s) => s.outcome)).toEqual([
          'passed',
          'passed',
          'passed',
          'passed',
          'passed',
          'skipped',
          'passed',
        ]);
        // The documented profile shows no usage or charge: said so, nothing invented.
        expect(m.usage).toEqual({
          exposed: false,
          detail: expect.stringMatching(
            /^the service exposes no usage or charge information \(the document doesn't show it, §4/,
          ) as unknown,
          fields: {},
        });
        expect(m.steps[1]!.detail).toMatch(/metadata\.duration 4 s \(an assumption/);
        // Nor does it send the gateway's billing header.
        expect(m.otherRatios).toBeNull();
      }
      expect(run.stdout + md).not.toContain('X-New-Api-Other-Ratios');
      expect(md).toMatch(/\*\*passed\*\* for all 3 models/);
      expect(md).toMatch(new RegExp(`Every model passed: ${UPDATE_DATE} \\d{4}-\\d{2}-\\d{2}\\.`));
      expect(run.stdout + run.stderr + raw + md).not.toContain('sk-mock-vip');
    },
  );
});

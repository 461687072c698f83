import { describe, expect, it } from 'vitest';
import { exitStatus } from '../../cli/commands/contract-target.ts';
import { targetUsageProblem, type ContractReport } from '../../contracts/index.ts';
import { resolveDefects } from '../../mocks/defects/catalog.ts';
import type { Defect } from '../../mocks/defects/defect.ts';
import { failures } from '../contracts/helpers.ts';
import { checkInProcess, FULL_MOCK, FULL_TARGET } from '../contracts/support/in-process.ts';

// The statement table (spec/statements.yaml, `videotask lint-spec --trace`) listed documented server
// rules that no check judged although one could: §5 "a model is usable only if the token's permissions
// and the group setting allow it" (no target option named a model the key may not use); §2.1
// "Multipart file upload is not accepted" (no probe sent one); §2.2/§2.3 "Unix timestamp" (a value in
// milliseconds passed). Each is judged now, and without the input a probe needs, its cell says why.

const result = (report: ContractReport, id: string) => report.results.find((r) => r.id === id)!;
const cell = (report: ContractReport, route: string, state = 'n/a', caller = 'owner') =>
  report.coverage.cells.find((c) => c.route === route && c.state === state && c.caller === caller)!;

async function failsWith(defect: string, id: string, basis: string, message: RegExp) {
  const { report } = await checkInProcess(
    { ...FULL_MOCK, defects: resolveDefects([defect]) },
    FULL_TARGET,
  );
  const judged = result(report, id);
  expect(judged.outcome, JSON.stringify(judged.violations[0]?.message)).toBe('fail');
  expect(judged.basisText).toBe(basis);
  expect(judged.violations[0]!.message).toMatch(message);
  return report;
}

describe('§5: a model the key may not use (--forbidden-model)', () => {
  it('is refused on both submit paths by the mock (403), creating nothing', async () => {
    const { report, service } = await checkInProcess(FULL_MOCK, FULL_TARGET);
    expect(result(report, 'auth.model-permissions')).toMatchObject({ outcome: 'pass', passes: 2 });
    for (const route of ['createVideoGeneration', 'createVideo'])
      expect(cell(report, route).rules['model-permissions']).toBe('pass');
    expect([...service.store.values()].filter((t) => t.model === 'video-lite-v1')).toEqual([]);
    expect(failures(report)).toEqual([]);
  });

  it('fails the run when the deployment serves it (documented §5), citing the statement', async () => {
    const report = await failsWith(
      'model-permissions-ignored',
      'auth.model-permissions',
      'documented §5',
      /with the model video-lite-v1, which this key may not use, answered HTTP 200/,
    );
    expect(result(report, 'auth.model-permissions').statements).toContain('5-model-permissions');
  });

  it('without the option is not judged, and its cells say why (no gap in the coverage)', async () => {
    const { report } = await checkInProcess({}, { budget: 2 });
    expect(result(report, 'auth.model-permissions')).toMatchObject({
      outcome: 'skip',
      skipped: 'no forbidden model given (--forbidden-model)',
    });
    expect(cell(report, 'createVideo').notJudged).toMatchObject({
      'model-permissions': 'no forbidden model given (--forbidden-model)',
    });
    expect(report.coverage.line).not.toMatch(/not judged/);
  });

  it('listed in the catalog for this key is an input error: not submitted, exit 2', async () => {
    const { report, service } = await checkInProcess(
      {},
      { budget: 2, forbiddenModel: 'video-lite-v1' },
    );
    expect(report.inputErrors).toEqual([
      expect.stringMatching(
        /^--forbidden-model video-lite-v1 is listed by GET \/v1\/models for this key, so the key may use it/,
      ),
    ]);
    expect([...service.store.values()].filter((t) => t.model === 'video-lite-v1')).toEqual([]);
    expect(result(report, 'auth.model-permissions').outcome).toBe('skip');
    expect(exitStatus(report).code).toBe(2);
  });

  it("outside the key's group (503 model_not_found, the gateway's answer) is left open, not failed", async () => {
    const { report } = await checkInProcess(
      { familyBound: true },
      // Each 503 may have made a task; the probes leave a lifecycle task's share (issue 31 item 4).
      { budget: 3, forbiddenModel: 'alt-video-v2' },
    );
    expect(failures(report)).toEqual([]);
    const judged = result(report, 'auth.model-permissions');
    expect(judged.outcome).toBe('skip');
    expect(judged.skipped).toMatch(/^the forbidden model was answered HTTP 503, which leaves open/);
    expect(report.unconfirmed.length).toBe(2);
    expect(cell(report, 'createVideo').notJudged?.['model-permissions']).toBe(judged.skipped);
  });

  it('named as --model too is a usage error', () => {
    expect(
      targetUsageProblem({ apiKey: 'k', model: 'video-pro-v1', forbiddenModel: 'video-pro-v1' }),
    ).toMatch(/^--forbidden-model video-pro-v1 is also --model/);
  });
});

describe('§2.1: a multipart file upload for the second family', () => {
  it.each([
    ['the observed profile (a file part refused, 400)', FULL_MOCK],
    ['the documented profile (JSON only, 415)', { familyBound: true, tokens: FULL_MOCK.tokens }],
  ])('is refused by %s', async (_name, mock) => {
    const { report } = await checkInProcess(mock, FULL_TARGET);
    expect(result(report, 'input.no-file-upload')).toMatchObject({ outcome: 'pass', passes: 1 });
    expect(cell(report, 'createVideo').rules['multipart-upload-refused']).toBe('pass');
    expect(failures(report)).toEqual([]);
  });

  it('accepted fails the run (documented §2.1)', async () => {
    await failsWith(
      'file-upload-accepted',
      'input.no-file-upload',
      'documented §2.1',
      /as multipart\/form-data uploading a reference file for alt-video-v2, answered HTTP 200/,
    );
  });

  it('is not judged without the second family, saying why', async () => {
    const { report } = await checkInProcess({}, { budget: 2 });
    expect(result(report, 'input.no-file-upload').skipped).toBe(
      'no second family open to this key (--family-model and --plugin)',
    );
    expect(cell(report, 'createVideo').unjudged).toEqual([]);
  });
});

describe('§2.2, §2.3: Unix timestamps are seconds', () => {
  it('pass on the mock, in every cell a task object or wrapper is read', async () => {
    const { report } = await checkInProcess(FULL_MOCK, FULL_TARGET);
    expect(result(report, 'task.unix-timestamps').outcome).toBe('pass');
    expect(result(report, 'wrapper.unix-timestamps').outcome).toBe('pass');
    for (const state of ['unknown', 'queued', 'in_progress', 'completed', 'failed'])
      expect(cell(report, 'getVideoGeneration', state).rules['wrapper-unix-timestamps']).toBe(
        'pass',
      );
  });

  it('in milliseconds fail, each form citing its own section', async () => {
    const report = await failsWith(
      'timestamps-in-milliseconds',
      'task.unix-timestamps',
      'documented §2.2',
      /^created_at \d{13} read as Unix seconds is the year \d{5}, not within ten years .*: milliseconds, not/,
    );
    expect(result(report, 'wrapper.unix-timestamps')).toMatchObject({
      outcome: 'fail',
      basisText: 'documented §2.3',
    });
  });

  it('a duration for completed_at (seconds since the task started) fails too', async () => {
    await failsWith(
      'completed-at-duration',
      'task.unix-timestamps',
      'documented §2.2',
      /^completed_at \d+ read as Unix seconds is the year 1970/,
    );
  });

  it("no false alarm for a server clock days off, judged against the answer's own Date", async () => {
    const dateDaysAhead: Defect = {
      name: 'date-days-ahead',
      description: 'sends a Date header three days ahead of its own clock',
      breaks: [],
      after: (_request, response, { state }) => ({
        ...response,
        headers: {
          ...response.headers,
          date: new Date(state.clock.now() + 3 * 86_400_000).toUTCString(),
        },
      }),
    };
    const { report } = await checkInProcess({ defects: [dateDaysAhead] }, { budget: 2 });
    expect(result(report, 'task.unix-timestamps').outcome).toBe('pass');
    expect(result(report, 'wrapper.unix-timestamps').outcome).toBe('pass');
    expect(failures(report)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { PROBE } from '../../contracts/checks/submission-probes.ts';
import { PROMPT } from '../../contracts/lifecycle-tasks.ts';
import { readProfile } from '../../src/profile/index.ts';
import { FULL_MOCK, FULL_TARGET } from './support/in-process.ts';
import { learnInProcess } from './support/learn-in-process.ts';
import { OWN_WAY } from './support/own-way.ts';

const FULL = { mock: FULL_MOCK, target: FULL_TARGET };
const ownWay = (name: string) => OWN_WAY.find((d) => d.name === name)!;

describe('a profile learned from a contract run', () => {
  it('has a learned answer for every cell the run observed, and reads as a valid profile', async () => {
    const { report, profile } = await learnInProcess(FULL);
    expect(readProfile(profile)).toBe(profile);
    const observed = report.coverage.cells.filter((c) => c.observed);
    expect(observed.length).toBe(104);
    for (const cell of observed)
      expect(Object.keys(profile.answers)).toContain(`${cell.route} ${cell.state} ${cell.caller}`);
    expect(profile.answers['getVideo missing owner']?.refused).toMatchObject({
      status: 400,
      body: { object: { code: { const: 'task_not_exist' }, data: { const: null } } },
    });
  });

  it('never holds an API key, a prompt, a signed URL or a task ID', async () => {
    const failing = 'a kite that must fail [mock:fail]';
    const { profile, service } = await learnInProcess({
      mock: FULL_MOCK,
      target: { ...FULL_TARGET, failing: { prompt: failing } },
    });
    const text = JSON.stringify(profile);
    for (const secret of [
      'sk-mock-vip',
      'sk-mock-bob',
      PROMPT,
      PROBE,
      failing,
      'sig=',
      '__artifacts',
    ])
      expect(text).not.toContain(secret);
    const created = service.store.ids();
    expect(created.length).toBeGreaterThan(0);
    for (const id of created) expect(text).not.toContain(id);
    // What stands for them: their kind, or a slot in a wording.
    expect(text).toContain('"kind":"task-id"');
    expect(text).toContain('{request-id}');
  });

  it("reads the gateway's lifecycle: unknown first, progress in steps, its wrapper words, a failure", async () => {
    const { profile } = await learnInProcess(FULL);
    const { lifecycle } = profile;
    expect(lifecycle.tasks).toBe(5);
    expect(lifecycle.phases.unknown[1]).toBeGreaterThan(0);
    expect(lifecycle.progress).toMatchObject({
      queued: { steps: [10] },
      in_progress: { steps: [50] },
      completed: { steps: [100] },
    });
    expect(lifecycle.wrapperStatuses).toMatchObject({ unknown: 'NOT_START', failed: 'FAILURE' });
    expect(lifecycle.failures[0]).toMatchObject({ code: expect.any(String) as unknown });
    expect(profile.requestId?.header).toBe('x-oneapi-request-id');
    expect(profile.errors.messageSuffix).toBe(' (request id: {request-id})');
    expect(profile.content).toMatchObject({ delivery: 'stream', range: true, head: true });
  });

  it('reads the documented profile as a moving progress curve, no unknown phase, no row fields', async () => {
    const { profile } = await learnInProcess({ mock: {}, target: {} });
    expect(profile.lifecycle.phases.unknown).toEqual([0, 0]);
    expect(profile.lifecycle.progress.in_progress).toHaveProperty('curve');
    const data = profile.answers['getVideoGeneration in_progress owner']?.ok?.body;
    expect(JSON.stringify(data)).not.toContain('user_id');
  });

  it("learns IDs of the deployment's own form and its own error bodies", async () => {
    const { profile } = await learnInProcess({
      mock: { defects: [ownWay('own-way-task-ids'), ownWay('own-way-error-bodies')] },
    });
    expect(profile.taskId.form).toBe('vtsk-{alnum:32}');
    expect(profile.answers['getVideo missing none']?.refused?.body).toEqual({
      object: {
        failure: { object: { reason: { kind: 'text', template: expect.any(String) as unknown } } },
      },
    });
  });

  it('asks the refusals a run does not ask while the budget allows, and says which it could not', async () => {
    const roomy = await learnInProcess({ mock: {}, target: { budget: 3 } });
    expect(Object.keys(roomy.profile.answers['createVideo n/a owner'] ?? {}).sort()).toEqual([
      'empty-prompt',
      'invalid-json',
      'missing-model',
      'missing-prompt',
      'model-not-string',
      'ok',
      'prompt-not-string',
      'unknown-model',
      'unsupported-media-type',
    ]);
    expect(roomy.profile.submissions.multipart).toBe(false);
    expect(roomy.notes).toEqual([]);
    const tight = await learnInProcess({ mock: {}, target: { budget: 2 } });
    expect(tight.notes).toHaveLength(3);
    expect(tight.notes[0]).toMatch(/no budget left \(--budget 3 would allow it\)/);
    expect(tight.report.tasksCreated).toBe(2);
  });

  it('refines a profile with another run: timing ranges widen, runs add up', async () => {
    const quick = {
      mock: { timing: { queueMs: [1_000, 2_000], runMs: [10_000, 12_000] } },
    } as const;
    const slow = {
      mock: { timing: { queueMs: [30_000, 40_000], runMs: [60_000, 90_000] } },
    } as const;
    const first = await learnInProcess(quick);
    const both = await learnInProcess(slow, { into: first.profile, seed: 'second' });
    const { queued, running } = both.profile.lifecycle.phases;
    expect(queued[0]).toBeLessThanOrEqual(first.profile.lifecycle.phases.queued[0]);
    expect(queued[1]).toBeGreaterThanOrEqual(30_000);
    expect(running[1]).toBeGreaterThanOrEqual(60_000);
    expect(both.profile.target.runs).toBe(2);
    expect(both.profile.lifecycle.tasks).toBe(4);
  });
});

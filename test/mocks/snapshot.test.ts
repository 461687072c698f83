import { describe, expect, it } from 'vitest';
import { DEFAULT_TIMING, type TaskPlan } from '../../mocks/core/plan/plan.ts';
import { snapshot } from '../../mocks/core/plan/snapshot.ts';
import { drawPlan } from '../../mocks/core/plan/plan.ts';
import { createRandom } from '../../mocks/core/plan/random.ts';
import { canTransition, serviceContract } from '../../src/spec/index.ts';

const { lifecycle } = serviceContract();
const created = 1_000_000;
const succeed: TaskPlan = {
  unknownMs: 0,
  queueMs: 5_000,
  runMs: 40_000,
  outcome: 'succeed',
  scenario: 'succeed',
};
const fail: TaskPlan = {
  ...succeed,
  runMs: 20_000,
  outcome: 'fail',
  errorCode: 'X',
  errorMessage: 'x',
  scenario: 'fail',
};
const stuck: TaskPlan = {
  ...succeed,
  runMs: Number.POSITIVE_INFINITY,
  outcome: 'stuck',
  scenario: 'stuck',
};
const unknownFirst: TaskPlan = { ...succeed, unknownMs: 3_000, scenario: 'unknown' };

describe('snapshot', () => {
  it.each([
    ['succeed', succeed, 0, 'queued', 0],
    ['succeed', succeed, 4_999, 'queued', 0],
    ['succeed', succeed, 5_000, 'in_progress', 1],
    ['succeed', succeed, 25_000, 'in_progress', 67],
    ['succeed', succeed, 44_999, 'in_progress', 99],
    ['succeed', succeed, 45_000, 'completed', 100],
    ['succeed', succeed, 10_000_000, 'completed', 100],
    ['fail', fail, 24_999, 'in_progress', 99],
    ['fail', fail, 25_000, 'failed', 100],
    ['stuck', stuck, 5_000, 'in_progress', 1],
    ['stuck', stuck, 86_400_000, 'in_progress', 99],
    ['unknown', unknownFirst, 0, 'unknown', 0],
    ['unknown', unknownFirst, 2_999, 'unknown', 0],
    ['unknown', unknownFirst, 3_000, 'queued', 0],
  ] as const)('%s plan at +%i ms is %s at %i%%', (_name, plan, offset, status, progress) => {
    const snap = snapshot(created, plan, created + offset);
    expect(snap.status).toBe(status);
    expect(snap.progress).toBe(progress);
  });

  it('dates the end of a finished task and its last change', () => {
    expect(snapshot(created, succeed, created + 60_000)).toEqual({
      status: 'completed',
      progress: 100,
      finishedAt: created + 45_000,
      updatedAt: created + 45_000,
    });
    expect(snapshot(created, succeed, created + 1_000).updatedAt).toBe(created);
    expect(snapshot(created, succeed, created + 7_000).updatedAt).toBe(created + 7_000);
  });

  it('walks only legal transitions with progress that never decreases, for any drawn plan', () => {
    const random = createRandom('walk');
    const problems: string[] = [];
    for (let i = 0; i < 300; i++) {
      const plan = drawPlan({ random, timing: DEFAULT_TIMING, failureRate: 0.3 });
      let previous = snapshot(created, plan, created);
      if (!lifecycle.initial.values.includes(previous.status))
        problems.push(`plan ${i} starts ${previous.status}`);
      for (let t = 250; t <= 80_000; t += 250) {
        const next = snapshot(created, plan, created + t);
        if (!canTransition(lifecycle, previous.status, next.status))
          problems.push(`plan ${i} +${t}: ${previous.status} → ${next.status}`);
        if (next.progress < previous.progress)
          problems.push(`plan ${i} +${t}: progress ${previous.progress} → ${next.progress}`);
        if (!Number.isInteger(next.progress) || next.progress < 0 || next.progress > 100)
          problems.push(`plan ${i} +${t}: progress ${next.progress}`);
        if (next.updatedAt < previous.updatedAt)
          problems.push(`plan ${i} +${t}: updatedAt went back`);
        previous = next;
      }
      if (!lifecycle.terminal.values.includes(previous.status))
        problems.push(`plan ${i} ends ${previous.status}`);
    }
    expect(problems).toEqual([]);
  });

  it('draws realistic default plans: seconds queued, tens of seconds running', () => {
    const random = createRandom(1);
    for (let i = 0; i < 100; i++) {
      const plan = drawPlan({ random, timing: DEFAULT_TIMING, failureRate: 0 });
      expect(plan.queueMs).toBeGreaterThanOrEqual(2_000);
      expect(plan.queueMs).toBeLessThanOrEqual(8_000);
      expect(plan.runMs).toBeGreaterThanOrEqual(20_000);
      expect(plan.runMs).toBeLessThanOrEqual(60_000);
      expect(plan.outcome).toBe('succeed');
    }
  });

  it('fails about as often as the failure rate says, with upstream-like errors', () => {
    const random = createRandom(2);
    const plans = Array.from({ length: 2000 }, () =>
      drawPlan({ random, timing: DEFAULT_TIMING, failureRate: 0.1 }),
    );
    const failed = plans.filter((p) => p.outcome === 'fail');
    expect(failed.length).toBeGreaterThan(140);
    expect(failed.length).toBeLessThan(260);
    for (const p of failed) expect(p.errorCode).toMatch(/^[A-Z][A-Za-z]+$/);
  });
});

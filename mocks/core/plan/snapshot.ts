import { LIFECYCLE } from '../../../src/generated/client-contract.ts';
import type { VideoStatus } from '../../../src/spec/lifecycle.ts';
import type { TaskPlan } from './plan.ts';

export interface TaskSnapshot {
  readonly status: VideoStatus;
  /** Integer 0–100, never decreasing over time for one plan. */
  readonly progress: number;
  /** When the task reached its final state (ms), if it has. */
  readonly finishedAt?: number | undefined;
  /** When the visible state last changed (ms). */
  readonly updatedAt: number;
}

/**
 * The state of a task at `now`: a pure function of its creation time and plan.
 * Phases: unknown → queued → in_progress → completed | failed (or in_progress forever when stuck).
 */
export function snapshot(createdAt: number, plan: TaskPlan, now: number): TaskSnapshot {
  const t = now - createdAt;
  if (t < plan.unknownMs) return { status: 'unknown', progress: 0, updatedAt: createdAt };
  if (t < plan.queueMs)
    return { status: 'queued', progress: 0, updatedAt: createdAt + plan.unknownMs };
  const running = t - plan.queueMs;
  if (running < plan.runMs || plan.outcome === 'stuck') {
    const progress = Math.max(plan.progressFloor ?? 0, runningProgress(running, plan.runMs));
    return { status: 'in_progress', progress, updatedAt: Math.max(createdAt + plan.queueMs, now) };
  }
  const finishedAt = createdAt + plan.queueMs + plan.runMs;
  return {
    status: plan.outcome === 'fail' ? 'failed' : 'completed',
    progress: 100,
    finishedAt,
    updatedAt: finishedAt,
  };
}

/**
 * A plan that ends with `outcome` after `afterMs` from `now`, keeping what was already seen: a task
 * waiting in line starts running now, a running task keeps its progress as a floor. `undefined` when the
 * task has already finished (its final state never changes).
 */
export function forcePlan(
  createdAt: number,
  plan: TaskPlan,
  now: number,
  force: {
    outcome: TaskPlan['outcome'];
    afterMs?: number | undefined;
    errorCode?: string | undefined;
    errorMessage?: string | undefined;
  },
): TaskPlan | undefined {
  const snap = snapshot(createdAt, plan, now);
  if ((LIFECYCLE.terminal as readonly string[]).includes(snap.status)) return undefined;
  // Whole ms: a manual clock may sit between two (advanced by a fraction); plans are integers.
  const elapsed = Math.floor(now - createdAt);
  const waiting = snap.status === 'unknown' || snap.status === 'queued';
  const queueMs = waiting ? elapsed : plan.queueMs;
  const unknownMs = Math.min(plan.unknownMs, queueMs);
  const runMs =
    force.outcome === 'stuck' ? Number.POSITIVE_INFINITY : elapsed - queueMs + (force.afterMs ?? 0);
  return {
    unknownMs,
    queueMs,
    runMs,
    outcome: force.outcome,
    errorCode: force.outcome === 'fail' ? force.errorCode : undefined,
    errorMessage: force.outcome === 'fail' ? force.errorMessage : undefined,
    scenario: `forced:${force.outcome}`,
    progressFloor: snap.status === 'in_progress' ? snap.progress : undefined,
    flakyEvery: plan.flakyEvery,
  };
}

/** 1–99 while running, easing out (fast at first, slower near the end), as upstream progress does. */
export function runningProgress(runningMs: number, runMs: number): number {
  if (!Number.isFinite(runMs)) return Math.min(99, 1 + Math.floor(runningMs / 10_000)); // stuck: creeps, never done
  const f = Math.min(1, Math.max(0, runningMs / runMs));
  return Math.min(99, Math.max(1, Math.floor(100 * (1 - (1 - f) ** 1.6))));
}

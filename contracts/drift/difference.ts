/** One difference between two deployments (decisions/018), and the lifecycle reading it may rest on. */
import type { PhaseName, TaskStatus } from '../../src/profile/index.ts';

/** What a difference is about. */
export type Aspect =
  | 'status'
  | 'content-type'
  | 'body'
  | 'headers'
  | 'timing'
  | 'observed'
  | 'lifecycle'
  | 'content'
  | 'identifiers'
  | 'verdict';

/** One difference between two deployments, at one step and cell (or of the whole lifecycle). */
export interface Difference {
  readonly aspect: Aspect;
  /** `getVideo queued owner`, or `lifecycle` / `content` / `identifiers` for the whole run. */
  readonly cell: string;
  /** `ok`, `refused`, `empty-prompt`, … (empty for the whole-run aspects). */
  readonly situation: string;
  /** A body path, a header name, a phase. */
  readonly where: string;
  readonly a: string;
  readonly b: string;
  /** The steps of the sequence that asked it ("poll", "queued probe", …). */
  readonly steps: readonly string[];
  /** The lifecycle reading a difference of the whole lifecycle rests on (never parsed from `where`). */
  readonly reading?: LifecycleReading;
}

/** The lifecycle reading a difference is about: a phase's length, a state's progress or wrapper word. */
export type LifecycleReading =
  | { readonly of: 'phase'; readonly phase: PhaseName }
  | { readonly of: 'progress'; readonly state: TaskStatus }
  | { readonly of: 'wrapper'; readonly state: TaskStatus };

/** How a difference's `where` names a reading. */
export function lifecycleWhere(reading: LifecycleReading): string {
  if (reading.of === 'phase') return `${reading.phase} phase`;
  return `${reading.of === 'progress' ? 'progress' : 'wrapper status'} while ${reading.state}`;
}

/** A difference of the whole lifecycle, read from the owner's polls. */
export function lifecycleDifference(
  reading: LifecycleReading,
  sides: { readonly a: string; readonly b: string },
  aspect: 'lifecycle' | 'timing' = 'lifecycle',
): Difference {
  const where = lifecycleWhere(reading);
  return { aspect, cell: 'lifecycle', situation: '', where, ...sides, steps: ['poll'], reading };
}

// Defects in the lifecycle: status order, progress and undocumented statuses.
import { expect } from 'vitest';
import { canTransition } from '../../../src/spec/index.ts';
import {
  client,
  moveTo,
  lifecycle,
  validators,
  video,
  wrapper,
  type Task,
  type Wrapper,
} from './client.ts';
import { own, query, type Case } from './session.ts';

export const LIFECYCLE_CASES: readonly Case[] = [
  [
    'status-regression',
    (s) => query(s) && s.status === 'completed' && s.sinceFinishMs! >= 30_000,
    () => {
      const c = client(['status-regression']);
      const id = c.submit();
      moveTo(c, id, 1, 1);
      expect((video(c, id).body as Task).status).toBe('completed');
      moveTo(c, id, 1, 30_000);
      const again = video(c, id).body as Task;
      expect(again.status).toBe('in_progress');
      expect(canTransition(lifecycle, 'completed', again.status)).toBe(false);
      expect((wrapper(c, id).body as Wrapper).data.status).toBe('IN_PROGRESS');
      expect(again.progress).toBe(100); // nothing else regresses: progress does not go down
    },
  ],
  [
    'progress-decrease',
    (s) => query(s) && s.status === 'in_progress',
    () => {
      const c = client(['progress-decrease']);
      const id = c.submit();
      moveTo(c, id, 0.25);
      const first = [
        (video(c, id).body as Task).progress,
        parseInt((wrapper(c, id).body as Wrapper).data.progress, 10),
      ];
      moveTo(c, id, 0.75);
      const later = [
        (video(c, id).body as Task).progress,
        parseInt((wrapper(c, id).body as Wrapper).data.progress, 10),
      ];
      expect(later[0]!).toBeLessThan(first[0]!);
      expect(later).toEqual([later[0], later[0]]); // both forms tell the same (wrong) story
    },
  ],
  [
    'progress-out-of-range',
    (s) => query(s) && s.status === 'in_progress',
    () => {
      const c = client(['progress-out-of-range']);
      const id = c.submit();
      moveTo(c, id, 0.5);
      expect((video(c, id).body as Task).progress).toBeGreaterThan(100);
      expect((wrapper(c, id).body as Wrapper).data.progress).toBe('150%');
    },
  ],
  [
    'progress-incomplete',
    (s) => query(s) && s.status === 'completed',
    () => {
      const c = client(['progress-incomplete']);
      const id = c.submit();
      moveTo(c, id, 1, 1);
      const task = video(c, id).body as Task;
      expect(task).toMatchObject({ status: 'completed', progress: 99 });
      expect((wrapper(c, id).body as Wrapper).data.progress).toBe('99%');
    },
  ],
  [
    'undocumented-status',
    (s) => s.op === 'video' && own(s) && s.status === 'in_progress',
    () => {
      const c = client(['undocumented-status']);
      const id = c.submit();
      moveTo(c, id, 0.5);
      const response = video(c, id);
      expect((response.body as Task).status).toBe('processing');
      expect(lifecycle.states.values).not.toContain('processing');
      expect(
        validators
          .response('getVideo', 200)!
          .body(response.contentType)!
          .validate(response.body)
          .errors.join(),
      ).toMatch(/status/);
      expect((wrapper(c, id).body as Wrapper).data.status).toBe('IN_PROGRESS');
    },
  ],
];

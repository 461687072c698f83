// Defects in the task object: its ID, object, model and the fields each state must carry.
import { expect } from 'vitest';
import { missingFields } from '../../../src/spec/index.ts';
import {
  client,
  completedUnder,
  lacksWhenCompleted,
  failing,
  KITE,
  moveTo,
  lifecycle,
  video,
  wrapper,
  type Task,
  type Wrapper,
} from './client.ts';
import { ok, own, query, type Case } from './session.ts';

export const TASK_OBJECT_CASES: readonly Case[] = [
  [
    'task-id-mismatch',
    (s) => ok(s) && (s.op === 'submit' || (own(s) && s.op === 'video')),
    () => {
      const c = client(['task-id-mismatch']);
      const submitted = c.call('POST', '/v1/video/generations', { body: KITE }).body as Task;
      expect(submitted.task_id).not.toBe(submitted.id);
      expect((video(c, submitted.id).body as Task).task_id).not.toBe(submitted.id);
    },
  ],
  [
    'wrong-object',
    (s) => ok(s) && (s.op === 'submit' || (own(s) && s.op === 'video')),
    () => {
      const c = client(['wrong-object']);
      expect((c.call('POST', '/v1/video/generations', { body: KITE }).body as Task).object).toBe(
        'video.generation',
      );
    },
  ],
  [
    'model-not-echoed',
    (s) => ok(s) && (s.op === 'submit' || (own(s) && s.op === 'video')),
    () => {
      const c = client(['model-not-echoed']);
      const submitted = c.call('POST', '/v1/video/generations', { body: KITE }).body as Task;
      expect(submitted.model).toBe('video-pro-v1-20260101');
      expect((video(c, submitted.id).body as Task).model).not.toBe(KITE.model);
    },
  ],
  [
    'submission-202-accepted',
    (s) => s.op === 'submit' && ok(s),
    () => {
      const c = client(['submission-202-accepted']);
      const submitted = c.call('POST', '/v1/videos', { body: KITE });
      expect(submitted.status).toBe(202);
      expect((submitted.body as Task).status).toBe('queued');
    },
  ],
  [
    'timestamps-in-milliseconds',
    (s) => ok(s) && (s.op === 'submit' || query(s)),
    () => {
      const c = client(['timestamps-in-milliseconds']);
      const submitted = c.call('POST', '/v1/video/generations', { body: KITE }).body as Task;
      expect(submitted.created_at).toBeGreaterThan(1e12);
      const { data } = wrapper(c, submitted.id).body as Wrapper;
      expect(data.created_at).toBeGreaterThan(1e12);
      expect(data.updated_at).toBeGreaterThan(1e12);
    },
  ],
  [
    'submission-without-created-at',
    (s) => ok(s) && s.op === 'submit',
    () => {
      const c = client(['submission-without-created-at']);
      const submitted = c.call('POST', '/v1/video/generations', { body: KITE }).body as Task;
      expect(missingFields(submitted, lifecycle.presence.onSubmission.fields)).toEqual([
        'created_at',
      ]);
      expect((video(c, submitted.id).body as Task).created_at).toBeTypeOf('number');
    },
  ],
  [
    'completed-without-completed-at',
    (s) => s.op === 'video' && own(s) && s.status === 'completed',
    () => {
      const { task } = completedUnder('completed-without-completed-at');
      expect(task.status).toBe('completed');
      expect(lacksWhenCompleted(task)).toEqual(['completed_at']);
    },
  ],
  [
    'completed-without-url',
    (s) => s.op === 'video' && own(s) && s.status === 'completed',
    () => {
      const { c, id, task } = completedUnder('completed-without-url');
      expect(lacksWhenCompleted(task)).toEqual(['metadata.url']);
      expect((wrapper(c, id).body as Wrapper).data.result_url).toMatch(/^http/);
    },
  ],
  [
    'failed-without-error',
    (s) => s.op === 'video' && own(s) && s.status === 'failed',
    () => {
      const c = client(['failed-without-error']);
      const id = failing(c);
      moveTo(c, id, 1, 1);
      const task = video(c, id).body as Task;
      expect(task.status).toBe('failed');
      expect(missingFields(task, lifecycle.presence.byStatus.failed!.fields)).toEqual([
        'error',
        'error.code',
        'error.message',
      ]);
    },
  ],
  [
    'completed-at-duration',
    (s) => s.op === 'video' && own(s) && s.status === 'completed',
    () => {
      const c = client(['completed-at-duration']);
      const id = c.submit();
      moveTo(c, id, 1, 1);
      const task = video(c, id).body as Task;
      expect(task.completed_at!).toBeLessThan(task.created_at!);
    },
  ],
];

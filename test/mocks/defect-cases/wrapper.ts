// Defects in the wrapper form of a task (`/v1/video/generations/{id}`) and upstream IDs.
import { expect } from 'vitest';
import { fromWrapperStatus } from '../../../src/spec/index.ts';
import {
  client,
  failing,
  moveTo,
  lifecycle,
  video,
  wrapper,
  type Task,
  type Wrapper,
} from './client.ts';
import { ok, own, type Case } from './session.ts';

export const WRAPPER_CASES: readonly Case[] = [
  [
    'wrapper-disagrees',
    (s) => s.op === 'wrapper' && own(s) && s.status === 'completed',
    () => {
      const c = client(['wrapper-disagrees']);
      const id = c.submit();
      moveTo(c, id, 1, 1);
      expect((video(c, id).body as Task).status).toBe('completed');
      const { data } = wrapper(c, id).body as Wrapper;
      expect(fromWrapperStatus(lifecycle, data.status)).toBe('in_progress');
      expect(data).toMatchObject({ progress: '99%' });
      expect(data.result_url).toBeUndefined();
    },
  ],
  [
    'wrapper-progress-format',
    (s) => s.op === 'wrapper' && own(s) && ok(s),
    () => {
      const c = client(['wrapper-progress-format']);
      const id = c.submit();
      moveTo(c, id, 0.5);
      const { data } = wrapper(c, id).body as Wrapper;
      expect(data.progress).toBe(String((video(c, id).body as Task).progress));
      expect(data.progress).not.toMatch(/^\d+%$/);
    },
  ],
  [
    'wrapper-failure-status',
    (s) => s.op === 'wrapper' && own(s) && s.status === 'failed',
    () => {
      const c = client(['wrapper-failure-status']);
      const id = failing(c);
      moveTo(c, id, 1, 1);
      expect((wrapper(c, id).body as Wrapper).data).toMatchObject({
        status: 'ERROR',
        fail_reason: '',
      });
    },
  ],
  [
    'wrapper-platform-number',
    (s) => s.op === 'wrapper' && own(s) && ok(s),
    () => {
      const c = client(['wrapper-platform-number']);
      const { data } = wrapper(c, c.submit()).body as Wrapper;
      expect(data.platform).toBe(54);
    },
  ],
  [
    'wrapper-success-message',
    (s) => s.op === 'wrapper' && own(s) && ok(s),
    () => {
      const c = client(['wrapper-success-message']);
      expect(wrapper(c, c.submit()).body as Wrapper).toMatchObject({
        code: 'success',
        message: 'ok',
      });
    },
  ],
  [
    'upstream-id-exposed',
    (s) => s.op === 'wrapper' && own(s) && ok(s),
    () => {
      const c = client(['upstream-id-exposed']);
      const id = c.submit();
      const { data } = wrapper(c, id).body as Wrapper;
      expect(data.task_id).not.toBe(id);
      expect(data.task_id).toMatch(/^cgt-\d{8}-[0-9a-f]{12}$/);
      expect(wrapper(c, data.task_id).status).toBe(404); // and it does not query the task
    },
  ],
];

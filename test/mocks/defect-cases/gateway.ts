// Defects that copy the deployed gateway's habits, ranges and the native path (§4.5).
import { expect } from 'vitest';
import { sampleVideo } from '../../../mocks/core/http/media.ts';
import {
  client,
  completedUnder,
  lacksWhenCompleted,
  failing,
  KEYS,
  moveTo,
  NATIVE,
  NATIVE_BODY,
  video,
  wrapper,
  type Task,
  type Wrapper,
} from './client.ts';
import { ok, own, type Case } from './session.ts';

export const GATEWAY_CASES: readonly Case[] = [
  [
    'gateway-raw-upstream-body',
    (s) => s.op === 'wrapper' && own(s) && ok(s),
    () => {
      const c = client(['gateway-raw-upstream-body']);
      const id = c.submit();
      const { data } = wrapper(c, id).body as Wrapper & { data: { data: { id: string } } };
      expect(data.task_id).toBe(id);
      expect(data.data.id).toMatch(/^cgt-\d{8}-[0-9a-f]{12}$/);
    },
  ],
  [
    'gateway-result-url-fallback',
    (s) => s.op === 'wrapper' && own(s) && s.status === 'failed',
    () => {
      const c = client(['gateway-result-url-fallback']);
      const id = failing(c);
      moveTo(c, id, 1, 1);
      const { data } = wrapper(c, id).body as Wrapper;
      expect(data.result_url).toBe(data.fail_reason);
      expect(data.result_url).not.toMatch(/^https?:/);
    },
  ],
  [
    'gateway-timeout-sweep',
    (s) => (s.op === 'video' || s.op === 'wrapper') && own(s) && s.status === 'failed',
    () => {
      const c = client(['gateway-timeout-sweep']);
      const id = failing(c);
      moveTo(c, id, 1, 1);
      expect((video(c, id).body as Task).error).toBeUndefined();
      expect((wrapper(c, id).body as Wrapper).data.fail_reason).toMatch(/^任务超时/);
    },
  ],
  [
    'gateway-drops-task-id',
    (s) => s.op === 'video' && own(s) && ok(s),
    () => {
      const { task } = completedUnder('gateway-drops-task-id');
      expect(task.status).toBe('completed');
      expect(lacksWhenCompleted(task)).toEqual(['task_id']);
    },
  ],
  [
    'range-from-start',
    (s) => s.op === 'content-range',
    () => {
      const c = client(['range-from-start']);
      const id = c.submit();
      moveTo(c, id, 1, 1);
      const part = c.call('GET', `/v1/videos/${id}/content`, {
        headers: { range: 'bytes=100-199' },
      });
      expect(part.status).toBe(206);
      expect(part.body).toEqual(sampleVideo().bytes.subarray(0, 100));
    },
  ],
  [
    'native-openai-statuses',
    (s) => s.label === 'vip polls its running native task',
    () => {
      const c = client(['native-openai-statuses']);
      const id = (
        c.call('POST', NATIVE, { key: KEYS.vip, body: NATIVE_BODY }).body as { id: string }
      ).id;
      moveTo(c, id, 0.5);
      expect(c.call('GET', `${NATIVE}/${id}`, { key: KEYS.vip }).body).toMatchObject({
        status: 'in_progress',
      });
    },
  ],
  [
    'native-mixed-accepted',
    (s) => s.label === 'vip submits a native body with a prompt mixed in',
    () => {
      const c = client(['native-mixed-accepted']);
      const mixed = { ...NATIVE_BODY, prompt: 'a red kite', metadata: { duration: 5 } };
      expect(c.call('POST', NATIVE, { key: KEYS.vip, body: mixed }).status).toBe(200);
      expect(c.service.store.size).toBe(1);
    },
  ],
  [
    'native-path-missing',
    (s) => s.label === 'vip submits on the native path',
    () => {
      const c = client(['native-path-missing']);
      const refused = c.call('POST', NATIVE, { key: KEYS.vip, body: NATIVE_BODY });
      expect(refused.status).toBe(404);
      expect(refused.body).toMatchObject({ error: { code: 'route_not_found' } });
      expect(
        c.call('POST', '/v1/videos', {
          key: KEYS.vip,
          body: { model: 'alt-video-v2', prompt: 'a kite' },
        }).status,
      ).toBe(200);
    },
  ],
];

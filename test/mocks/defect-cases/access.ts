// Defects in downloads, ownership, authentication, input checks and error bodies.
import { expect } from 'vitest';
import { sampleVideo } from '../../../mocks/core/http/media.ts';
import {
  client,
  content,
  FILE_UPLOAD,
  KEYS,
  KITE,
  MISSING,
  moveTo,
  video,
  wrapper,
  type Task,
} from './client.ts';
import { downloads, running, type Case } from './session.ts';

export const ACCESS_CASES: readonly Case[] = [
  ...(['content-html-as-video', 'content-empty-video'] as const).map((defect): Case => [
    defect,
    // A HEAD answer has no body to tell: it reads as the clean one.
    (s) => downloads(s) && s.status === 'completed' && s.op !== 'content-head',
    () => {
      const c = client([defect]);
      const id = c.submit();
      moveTo(c, id, 1, 1);
      const response = content(c, id);
      expect(response).toMatchObject({ status: 200, contentType: 'video/mp4' });
      const { body } = response; // the text the defect sent, as the test client keeps it
      const text = typeof body === 'string' ? body : new TextDecoder().decode(body as Uint8Array);
      if (defect === 'content-empty-video') expect(text).toBe('');
      else expect(text).toMatch(/^<!DOCTYPE html>/);
    },
  ]),
  [
    'content-before-completion',
    (s) => downloads(s) && running(s),
    () => {
      const c = client(['content-before-completion']);
      const id = c.submit();
      expect((video(c, id).body as Task).status).toBe('queued');
      const response = content(c, id);
      expect(response).toMatchObject({ status: 200, contentType: 'video/mp4' });
      expect(
        Buffer.from(response.body as Uint8Array).equals(Buffer.from(sampleVideo().bytes)),
      ).toBe(true);
      expect(content(c, id, KEYS.alice, 'HEAD')).toEqual({
        status: 200,
        contentType: 'video/mp4',
        body: undefined,
      });
    },
  ],
  [
    'content-as-json',
    (s) => downloads(s) && s.status === 'completed',
    () => {
      const c = client(['content-as-json']);
      const id = c.submit();
      moveTo(c, id, 1, 1);
      const response = content(c, id);
      expect(response.status).toBe(200);
      expect(response.contentType).toMatch(/^application\/json/);
      expect((response.body as { url: string }).url).toBe(
        (video(c, id).body as Task).metadata!.url,
      );
    },
  ],
  [
    'missing-task-200',
    (s) => s.op === 'content' && s.task === 'missing',
    () => {
      const c = client(['missing-task-200']);
      const response = content(c, MISSING);
      expect(response.status).toBe(200);
      expect(response.contentType).not.toMatch(/json/);
      expect((response.body as Uint8Array).byteLength).toBe(0);
    },
  ],
  [
    'foreign-content',
    (s) => s.op === 'content' && s.who === 'bob',
    () => {
      const c = client(['foreign-content']);
      const id = c.submit();
      moveTo(c, id, 1, 1);
      expect(content(c, id, KEYS.bob)).toMatchObject({ status: 200, contentType: 'video/mp4' });
      expect(c.service.store.get(id)!.owner).toBe('alice');
    },
  ],
  [
    'foreign-status',
    (s) => s.op === 'video' && s.who === 'bob',
    () => {
      const c = client(['foreign-status']);
      const id = c.submit();
      expect(video(c, id, KEYS.bob)).toMatchObject({ status: 200, body: { id } });
      expect(wrapper(c, id, KEYS.bob).status).toBe(404);
    },
  ],
  [
    'auth-skipped',
    (s) => s.who === 'none' && ((s.op === 'video' && s.task === 'A') || s.op === 'models'),
    () => {
      const c = client(['auth-skipped']);
      const id = c.submit();
      expect(video(c, id, null)).toMatchObject({ status: 200, body: { id } });
      expect(c.call('GET', '/v1/models', { key: null }).status).toBe(200);
    },
  ],
  [
    'empty-prompt-accepted',
    (s) => s.op === 'submit-empty',
    () => {
      const c = client(['empty-prompt-accepted']);
      for (const prompt of ['', '   '])
        expect(c.call('POST', '/v1/video/generations', { body: { ...KITE, prompt } }).status).toBe(
          200,
        );
      expect(c.service.store.size).toBe(2);
    },
  ],
  [
    'required-fields-defaulted',
    (s) => s.op === 'submit-incomplete',
    () => {
      const c = client(['required-fields-defaulted']);
      const missing = c.call('POST', '/v1/videos', { body: { prompt: KITE.prompt } });
      const mistyped = c.call('POST', '/v1/video/generations', {
        body: { model: KITE.model, prompt: ['a', 'kite'] },
      });
      expect([missing.status, mistyped.status]).toEqual([200, 200]);
      expect(c.service.store.size).toBe(2);
    },
  ],
  [
    'model-permissions-ignored',
    (s) => s.label === 'limited submits a model its token may not use',
    () => {
      const c = client(['model-permissions-ignored']);
      const clean = client();
      const call = { body: KITE, key: KEYS.limited };
      expect(clean.call('POST', '/v1/video/generations', call).status).toBe(403);
      expect(c.call('POST', '/v1/video/generations', call)).toMatchObject({
        status: 200,
        body: { model: 'video-pro-v1', status: 'queued' },
      });
      // Outside alice's group (503 model_not_found on the clean mock) it is served too.
      const family = { body: { ...KITE, model: 'alt-video-v2' } };
      expect(clean.call('POST', '/v1/videos', family).status).toBe(503);
      expect(c.call('POST', '/v1/videos', family).status).toBe(200);
    },
  ],
  [
    'file-upload-accepted',
    (s) => s.label === 'vip uploads a reference file (multipart)',
    () => {
      const upload = { key: KEYS.vip, ...FILE_UPLOAD };
      expect(client().call('POST', '/v1/videos', upload).status).toBe(415);
      expect(client(['file-upload-accepted']).call('POST', '/v1/videos', upload)).toMatchObject({
        status: 200,
        body: { model: 'alt-video-v2', status: 'queued' },
      });
    },
  ],
  [
    'non-json-error',
    (s) => s.response.status >= 400,
    () => {
      const c = client(['non-json-error']);
      const id = c.submit();
      for (const response of [content(c, id), content(c, MISSING), video(c, id, null)]) {
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.contentType).toMatch(/^text\/plain/);
        expect(response.body).toBeTypeOf('string'); // the message, as text
        expect((): unknown => JSON.parse(response.body as string)).toThrow();
      }
    },
  ],
];

import { describe, expect, it } from 'vitest';
import { expectConformant, expectJsonError } from '../helpers/conformance.ts';
import { bound, NATIVE, nativeBody, openaiBody } from '../helpers/second-family.ts';

describe('second family, bound (type-61 plugin channel)', () => {
  it.each([
    [
      'a duration outside the family range',
      '/v1/videos',
      openaiBody('alt-video-v2', { duration: 30 }),
      400,
      /between 4 and 12 seconds for alt-video-v2/,
    ],
    [
      'a resolution the model does not offer',
      '/v1/videos',
      openaiBody('alt-video-v2-fast', { resolution: '1080p' }),
      400,
      /1080p is not offered by alt-video-v2-fast: use one of 480p, 720p/,
    ],
    [
      'an asset:// reference',
      '/v1/videos',
      openaiBody('alt-video-v2', {
        content: [{ type: 'image_url', image_url: { url: 'asset://abc' } }],
      }),
      400,
      /asset:\/\/ reference/,
    ],
    [
      'an inline data: image',
      '/v1/videos',
      openaiBody('alt-video-v2', {
        content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }],
      }),
      400,
      /multipart upload is not accepted/,
    ],
    [
      'an item of an unknown type',
      '/v1/videos',
      openaiBody('alt-video-v2', { content: [{ type: 'audio_url' }] }),
      400,
      /metadata\.content\[0\]\.type must be/,
    ],
    [
      'content that is not a list',
      '/v1/videos',
      openaiBody('alt-video-v2', { content: 'https://x' }),
      400,
      /metadata\.content must be array/,
    ],
    [
      'an OpenAI body on the native path',
      NATIVE,
      { model: 'alt-video-v2', prompt: 'boat', content: [{ type: 'text', text: 'boat' }] },
      400,
      /native path.*POST \/v1\/videos/,
    ],
    [
      'a native body without a text item',
      NATIVE,
      {
        model: 'alt-video-v2',
        content: [{ type: 'image_url', image_url: { url: 'https://x.test/a.png' } }],
      },
      400,
      /text item/,
    ],
    [
      'a native asset:// reference',
      NATIVE,
      nativeBody('alt-video-v2', {
        content: [
          { type: 'text', text: 'b' },
          { type: 'video_url', video_url: { url: 'asset://v' } },
        ],
      }),
      400,
      /asset:\/\//,
    ],
    [
      'a primary model on the native path',
      NATIVE,
      nativeBody('video-pro-v1'),
      503,
      /No available channel for model video-pro-v1/,
    ],
  ])(
    'refuses %s with a 4xx naming it, and creates nothing',
    (_name, path, body, status, message) => {
      const { call, service } = bound();
      const response = call('POST', path, { key: 'sk-mock-vip', body });
      expectConformant(path === NATIVE ? 'createPluginTask' : 'createVideo', response);
      expectJsonError(response, status, message);
      expect(service.store.size).toBe(0);
    },
  );
});

import { describe, expect, it } from 'vitest';
import {
  privateHost,
  REFERENCE,
  referenceFlags,
  urlFlags,
} from '../../mocks/core/client-verdicts/references.ts';
import { createMockService, type ClientReport } from '../../mocks/index.ts';
import { coreWire } from './wire.ts';

// §2.1 on the second family's references, as a request shows it: a URL no upstream can read (a
// violation), one signed with an expiry (advice); and the bodies labelled JSON that are not (§4.1).

const { unreadable, preview, any } = REFERENCE;

describe('a reference URL', () => {
  it.each([
    ['http://127.0.0.1:8080/k.png', unreadable],
    ['http://localhost/k.png', unreadable],
    ['https://cam.local/k.png', unreadable],
    ['http://10.1.2.3/k.png', unreadable],
    ['http://172.20.0.5/k.png', unreadable],
    ['http://192.168.1.20/k.png', unreadable],
    ['http://169.254.169.254/latest', unreadable],
    ['http://[::1]/k.png', unreadable],
    ['http://[fd12:3456::1]/k.png', unreadable],
    ['http://[::ffff:127.0.0.1]/k.png', unreadable],
    ['file:///home/me/k.png', unreadable],
    ['https://s3.example.com/k.png?X-Amz-Expires=300&X-Amz-Signature=ab', preview],
    ['https://b.example.com/k.png?Expires=1700000000&Signature=ab&Key-Pair-Id=x', preview],
    ['https://a.blob.core.windows.net/c/k.png?se=2026-01-01&sig=ab', preview],
  ])('%s is flagged', (url, flag) => {
    expect(urlFlags(url)).toBe(flag | any);
  });

  it.each([
    'https://images.example.com/k.png',
    'https://10.example.com/k.png',
    'http://172.32.0.1/k.png',
    'http://[::ffff:8.8.8.8]/k.png',
    'https://a.blob.core.windows.net/c/k.png?se=2026-01-01',
    'https://b.example.com/k.png?expires=soon',
  ])('%s is a readable reference, not a preview', (url) => {
    expect(urlFlags(url)).toBe(any);
  });

  it.each(['a paper boat', 'asset://ref-7731', 'data:image/png;base64,AAAA', ''])(
    '%s is no reference this rule is about',
    (text) => expect(urlFlags(text)).toBe(0),
  );

  it('is looked for in metadata.content, content, image and images, nowhere else', () => {
    const at = (body: Record<string, unknown>) => referenceFlags(body) & unreadable;
    const url = 'http://127.0.0.1/k.png';
    expect(at({ metadata: { content: [{ image_url: { url } }] } })).toBe(unreadable);
    expect(at({ content: [{ video_url: { url } }] })).toBe(unreadable);
    expect(at({ image: url })).toBe(unreadable);
    expect(at({ images: ['https://ok.example.com/a.png', url] })).toBe(unreadable);
    expect(at({ prompt: url, metadata: { note: url } })).toBe(0);
  });

  it('tells private and public hosts apart', () => {
    expect(privateHost('100.64.0.1')).toBe(true);
    expect(privateHost('100.128.0.1')).toBe(false);
    expect(privateHost('8.8.8.8')).toBe(false);
    expect(privateHost('LOCALHOST.')).toBe(true);
  });
});

describe('a submission labelled JSON', () => {
  const verdicts = async (raw: string | undefined): Promise<ClientReport['verdicts']> => {
    const service = createMockService({ clock: { mode: 'manual' }, seed: 'json-body' });
    const headers = { 'content-type': 'application/json; charset=utf-8' };
    await coreWire(service).call('POST', '/v1/videos', { raw, headers });
    return service.clientReport().verdicts;
  };

  it('that is empty is no JSON (§4.1)', async () => {
    expect((await verdicts(undefined)).map((v) => v.rule)).toEqual(['json-body']);
  });

  it('that is JSON but no object lacks the fields of §2.1', async () => {
    expect((await verdicts('["video-pro-v1", "a kite"]')).map((v) => v.rule)).toEqual([
      'required-fields',
    ]);
  });

  it('that holds both fields breaks neither rule, whatever else it holds', async () => {
    const body = JSON.stringify({ model: 'video-pro-v1', prompt: 'a kite', extra: { a: [1] } });
    expect(await verdicts(body)).toEqual([]);
  });
});

import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { VideoTaskClient } from '../../src/client/index.ts';
import { MASKED, ORIGIN, SECRET, expectNoKey } from './client-fixture.ts';

describe('VideoTaskClient options', () => {
  it.each([
    ['', /baseUrl is required/],
    ['video.example.com', /is not a URL/],
    ['ftp://video.example.com', /http or https URL, got ftp/],
    ['https://user:pass@video.example.com', /must not contain credentials/],
    ['https://video.example.com/v1', /ends in \/v1/],
    ['https://video.example.com/?x=1', /query or fragment/],
  ])('refuses the baseUrl %j', (baseUrl, message) => {
    expect(() => new VideoTaskClient({ baseUrl, apiKey: SECRET })).toThrow(message);
  });

  it('keeps a path prefix and drops the trailing slash', () => {
    expect(
      new VideoTaskClient({ baseUrl: 'https://gw.example.com/video/', apiKey: SECRET }).baseUrl,
    ).toBe('https://gw.example.com/video');
  });

  it.each([
    ['', /apiKey is required/],
    [`${SECRET}\n`, /contains whitespace/],
    [`Bearer ${SECRET}`, /contains whitespace/],
  ])('refuses the apiKey %#, without showing it', (apiKey, message) => {
    let error: unknown;
    try {
      new VideoTaskClient({ baseUrl: ORIGIN, apiKey });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(message);
    expectNoKey(error);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])(
    'refuses requestTimeoutMs %s',
    (requestTimeoutMs) => {
      expect(
        () => new VideoTaskClient({ baseUrl: ORIGIN, apiKey: SECRET, requestTimeoutMs }),
      ).toThrow(/requestTimeoutMs/);
    },
  );

  it('never shows the key in String, util.inspect or JSON of the client', () => {
    const c = new VideoTaskClient({ baseUrl: ORIGIN, apiKey: SECRET });
    for (const text of [
      String(c),
      // eslint-disable-next-line @typescript-eslint/restrict-template-expressions -- what is tested
      `${c}`,
      inspect(c),
      inspect(c, { showHidden: true, depth: 10 }),
      JSON.stringify(c),
      JSON.stringify({ c }),
    ]) {
      expect(text).not.toContain(SECRET);
      expect(text).toContain(MASKED);
    }
  });
});

import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
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

  // Issue 35 item 1: a web app writes a relative base URL; it is read against the page's address
  // where there is one, and stays "not a URL" in Node, where there is none.
  describe('a relative baseUrl', () => {
    afterEach(() => vi.unstubAllGlobals());

    it.each([
      ['/', 'https://app.example.com'],
      ['/api', 'https://app.example.com/api'],
      ['/api/', 'https://app.example.com/api'],
      ['api', 'https://app.example.com/console/api'],
    ])('%j is read against the page in a browser', (baseUrl, expected) => {
      vi.stubGlobal('location', { href: 'https://app.example.com/console/index.html' });
      expect(new VideoTaskClient({ baseUrl, apiKey: SECRET }).baseUrl).toBe(expected);
    });

    it("prefers the document's base URI to the page's address", () => {
      vi.stubGlobal('location', { href: 'https://app.example.com/console/' });
      vi.stubGlobal('document', { baseURI: 'https://cdn.example.com/app/' });
      expect(new VideoTaskClient({ baseUrl: 'api', apiKey: SECRET }).baseUrl).toBe(
        'https://cdn.example.com/app/api',
      );
    });

    it('is not a URL in Node', () => {
      expect(() => new VideoTaskClient({ baseUrl: '/api', apiKey: SECRET })).toThrow(
        /baseUrl "\/api" is not a URL: give the service address/,
      );
    });
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

// Issue 33 item 3: a profile's answers were served as written. A learned or hand-edited profile could
// make the mock answer `text/html` echoing the request's path (a page's script then ran on the mock's
// origin and drove its control API past the cross-site protections) and send `set-cookie`, framing
// (`content-length`, `transfer-encoding`), CORS and `refresh`/`location` headers; a deployment that
// sends its JSON errors as `text/html` naming the task was learned that way. Now a profile's content
// types and headers are only what the service's answers can be (refused at load, naming the field),
// the learner keeps such HTML as text, every answer carries `nosniff` and a sandboxing policy, and
// `<` in a rendered JSON answer is `\u003c`.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createMockService } from '../../mocks/index.ts';
import type { CoreRequest, CoreResponse } from '../../mocks/core/http/http-types.ts';
import type { Defect } from '../../mocks/defects/defect.ts';
import {
  ProfileError,
  readProfile,
  type LearnedAnswer,
  type LearnedProfile,
} from '../../src/profile/index.ts';
import { learnInProcess } from '../contracts/support/learn-in-process.ts';

const OBSERVED = JSON.parse(
  readFileSync(new URL('../../mocks/profiles/observed.json', import.meta.url), 'utf8'),
) as LearnedProfile;
const CELL = 'getVideo missing owner';
const AT = '/answers/getVideo missing owner/refused';

/** The observed profile with its missing task's refusal changed by `edit`. */
function withRefusal(edit: (answer: Record<string, unknown>) => void): LearnedProfile {
  const copy = structuredClone(OBSERVED) as unknown as {
    answers: Record<string, Record<string, Record<string, unknown>>>;
  };
  edit(copy.answers[CELL]!['refused']!);
  return copy as unknown as LearnedProfile;
}

const header = (name: string, node: unknown) => (answer: Record<string, unknown>) => {
  (answer['headers'] as Record<string, unknown>)[name] = node;
};

function refusal(profile: LearnedProfile): string {
  try {
    readProfile(profile, 'hostile.json');
  } catch (error) {
    expect(error).toBeInstanceOf(ProfileError);
    return (error as Error).message;
  }
  throw new Error('the profile was accepted');
}

describe('a profile whose answers the service could not send is refused at load', () => {
  it.each(['text/html', 'text/html; charset=utf-8', 'application/xhtml+xml', 'image/svg+xml'])(
    'content type %s',
    (type) => {
      const message = refusal(withRefusal((a) => (a['contentType'] = type)));
      expect(message).toContain(`${AT}/contentType: is not a type of the service's answers`);
    },
  );

  it.each([
    'set-cookie',
    'content-length',
    'transfer-encoding',
    'access-control-allow-origin',
    'access-control-allow-credentials',
    'refresh',
    'content-security-policy',
    'content-encoding',
    'x-accel-redirect',
  ])('header %s', (name) => {
    const message = refusal(withRefusal(header(name, { const: 'x' })));
    expect(message).toContain(`${AT}/headers/${name}: is not a header the mock sends`);
  });

  it('a location of fixed text (sending the client elsewhere)', () => {
    const message = refusal(withRefusal(header('location', { const: 'https://evil.test/' })));
    expect(message).toContain(`${AT}/headers/location: a location is learned as {"kind": "url"}`);
    expect(() => readProfile(withRefusal(header('location', { kind: 'url' })))).not.toThrow();
  });

  it('still reads what the service sends: JSON, text, a video, bytes, and its own x- headers', () => {
    for (const type of ['application/json', 'text/plain; charset=utf-8', 'video/mp4', ''])
      expect(() => readProfile(withRefusal((a) => (a['contentType'] = type)))).not.toThrow();
    expect(() => readProfile(withRefusal(header('x-trace', { kind: 'word' })))).not.toThrow();
  });
});

const ORIGIN = 'http://127.0.0.1:4010';
const request = (path: string, key?: string): CoreRequest => ({
  method: 'GET',
  path,
  query: '',
  headers: key === undefined ? {} : { authorization: `Bearer ${key}` },
  origin: ORIGIN,
});
const text = (response: CoreResponse) =>
  typeof response.body === 'string' ? response.body : new TextDecoder().decode(response.body);

describe("the mock's answers", () => {
  it('carry nosniff and a sandboxing policy, a learned answer too, and no <', () => {
    const profile = withRefusal((a) => {
      a['body'] = {
        object: { error: { object: { message: { const: '<img src=x onerror=alert(1)>' } } } },
      };
    });
    for (const options of [{}, { profile }]) {
      const service = createMockService({ seed: 'servable', ...options });
      const path = '/v1/videos/task_%3Cscript%3Ealert(1)%3C%2Fscript%3E';
      for (const response of [
        service.handle(request(path, 'sk-mock-alice')),
        service.handle(request('/v1/models', 'sk-mock-alice')),
        service.handle(request('/__mock/health')),
      ]) {
        expect(response.headers['x-content-type-options']).toBe('nosniff');
        expect(response.headers['content-security-policy']).toMatch(/default-src 'none'.*sandbox/);
        expect(response.headers['content-type'] ?? '').not.toMatch(/html/);
      }
    }
    const service = createMockService({ seed: 'servable', profile });
    const refused = service.handle(request('/v1/videos/task_missing', 'sk-mock-alice'));
    expect(text(refused)).not.toContain('<');
    expect(JSON.parse(text(refused))).toMatchObject({
      error: { message: '<img src=x onerror=alert(1)>' },
    });
  });
});

/** A deployment that sends its refusals as HTML naming the task, with a cookie and CORS. */
const HTML_ERRORS: Defect = {
  name: 'html-errors',
  description: 'refusals as text/html naming the request path, with a cookie and CORS headers',
  breaks: [],
  after: (request, response) =>
    response.status < 400
      ? response
      : {
          ...response,
          headers: {
            ...response.headers,
            'content-type': 'text/html; charset=utf-8',
            'set-cookie': 'session=abc; Path=/',
            'access-control-allow-origin': '*',
            refresh: '0; url=https://evil.test/',
          },
          body: `<html><body><h1>Not found</h1><p>${request.path}</p></body></html>`,
        },
};

describe('a deployment answering its errors as HTML', () => {
  let learned: LearnedProfile;
  beforeAll(async () => {
    learned = (await learnInProcess({ mock: { defects: [HTML_ERRORS] } })).profile;
  });

  it('is learned as text, without its cookie, CORS or refresh headers, and the profile reads', () => {
    const answers = Object.values(learned.answers).flatMap((s) => Object.values(s));
    const refusals = answers.filter((a): a is LearnedAnswer => a !== undefined && a.status >= 400);
    expect(refusals.length).toBeGreaterThan(0);
    for (const answer of refusals) {
      expect(answer.contentType).toBe('text/plain; charset=utf-8');
      expect(Object.keys(answer.headers)).not.toEqual(
        expect.arrayContaining([expect.stringMatching(/set-cookie|access-control|refresh/)]),
      );
    }
    expect(() => readProfile(JSON.parse(JSON.stringify(learned)))).not.toThrow();
  });
});

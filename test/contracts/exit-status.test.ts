import { describe, expect, it } from 'vitest';
import { exitStatusOf } from '../../contracts/exit-status.ts';
import { notTheService } from '../../contracts/service-present.ts';
import { serviceUrl } from '../../src/client/client-support.ts';

// Issue 31 item 3: one exit status rule, said once; item 5: one URL join.
describe('the exit status of a judging run', () => {
  const none = { failures: 0, inputErrors: [], unjudged: [] };

  it('is 1 for a documented failure, whatever else happened, saying what was not checked', () => {
    expect(exitStatusOf({ ...none, failures: 2 })).toEqual({ code: 1 });
    const status = exitStatusOf({
      failures: 1,
      inputErrors: ['--other-api-key was refused.'],
      unjudged: ['no task could be followed.'],
    });
    expect(status.code).toBe(1);
    expect(status.why).toBe(
      '1 documented failure(s) found (exit 1 whatever else happened); besides, what could not be ' +
        "checked: the run's input is wrong: --other-api-key was refused. no task could be followed.",
    );
  });

  it('is 2 for a wrong input or a run that could not judge what it was asked to, else 0', () => {
    expect(exitStatusOf({ ...none, inputErrors: ['a key without quota.'] })).toEqual({
      code: 2,
      why: "the run's input is wrong: a key without quota.",
    });
    expect(exitStatusOf({ ...none, unjudged: ['it stopped answering.'] })).toEqual({
      code: 2,
      why: 'it stopped answering.',
    });
    expect(exitStatusOf(none)).toEqual({ code: 0 });
  });
});

describe('one URL join', () => {
  it.each([
    ['https://gw.example.com', 'https://gw.example.com/v1/models'],
    ['https://gw.example.com/', 'https://gw.example.com/v1/models'],
    ['https://gw.example.com/api', 'https://gw.example.com/api/v1/models'],
    ['https://gw.example.com/api/', 'https://gw.example.com/api/v1/models'],
    ['https://gw.example.com/a/b//', 'https://gw.example.com/a/b/v1/models'],
  ])('keeps the path prefix of %s', (base, url) => {
    expect(serviceUrl(base, '/v1/models')).toBe(url);
  });
});

describe('a base URL where nothing answers like the service', () => {
  const base = 'https://gw.example.com/api';
  it.each([
    [404, false],
    [405, false],
    [200, false],
  ])(
    'answered %i (JSON: %s) with the key and the same without: not the service',
    (status, json) => {
      const answer = { status, json };
      expect(notTheService(base, { withKey: answer, withoutKey: answer })).toMatch(
        /^nothing at https:\/\/gw\.example\.com\/api answers like the video task service: .*path prefix/,
      );
    },
  );

  it.each([
    ['a catalog', { status: 200, json: true }, { status: 401, json: true }],
    ['a refused key', { status: 401, json: true }, { status: 401, json: true }],
    ['a rate limit', { status: 429, json: false }, { status: 429, json: false }],
    [
      'a broken catalog that still asks for a key',
      { status: 404, json: true },
      { status: 401, json: true },
    ],
  ])('may be the service after %s', (_what, withKey, withoutKey) => {
    expect(notTheService(base, { withKey, withoutKey })).toBeUndefined();
  });
});

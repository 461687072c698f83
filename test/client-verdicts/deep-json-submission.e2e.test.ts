// Issue 33 item 1 (high): a submission with an unknown field nested 10,000 arrays deep (20 KB) recursed
// without limit in the client verdicts' fingerprint (`canonical()`): RangeError, the process gone (with
// `--workers` the worker died and the request got no answer; in msw the test got a 500 with the
// stack). Any page can send it with the public key. The body is now refused past the project's one
// depth limit, and a failure of the judge never takes the answer or the process with it.
import { afterEach, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/text/json-depth.ts';
import { coreClient } from '../helpers/core-client.ts';
import { killMockProcesses, listening, spawnMock } from '../helpers/mock-process.ts';

afterEach(killMockProcesses);

const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const bodies = [
  `{"model":"video-pro-v1","prompt":"a kite","extra":${deep(10_000)}}`,
  `{"model":"video-pro-v1","prompt":"a kite","metadata":{"content":${deep(10_000)}}}`,
];
const ROUTES = ['/v1/video/generations', '/v1/videos'];

async function post(base: string, path: string, body: string) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk-mock-alice', 'content-type': 'application/json' },
    body,
  });
  return { status: response.status, text: await response.text() };
}

it.each([[[]], [['--workers', '2']]])(
  'refuses a deeply nested submission with a JSON 400 and keeps serving (%j)',
  async (extra: string[]) => {
    const mock = spawnMock('--port', '0', ...extra);
    const base = await listening(mock, /secret: .*\n/, 30_000);
    for (const path of ROUTES)
      for (const body of bodies) {
        const answer = await post(base, path, body);
        expect(answer.status).toBe(400);
        expect(answer.text).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
        expect(answer.text).not.toMatch(/RangeError|at \w+ \(/);
      }
    const models = await fetch(`${base}/v1/models`, {
      headers: { authorization: 'Bearer sk-mock-alice' },
    });
    expect(models.status).toBe(200);
    const report = (await (await fetch(`${base}/__mock/client-report`)).json()) as {
      limits: { requestsNotJudged: number };
    };
    expect(report.limits.requestsNotJudged).toBe(0);
    expect(mock.stderr()).not.toMatch(/RangeError|Maximum call stack/);
  },
);

it('accepts a body at the depth limit and judges it in-process', () => {
  const { call } = coreClient();
  const nested = JSON.parse(deep(MAX_JSON_DEPTH - 1)) as unknown;
  const answer = call('POST', '/v1/videos', {
    body: { model: 'video-pro-v1', prompt: 'a kite', extra: nested },
  });
  expect(answer.status).toBe(200);
  const tooDeep = call('POST', '/v1/videos', {
    body: {
      model: 'video-pro-v1',
      prompt: 'a kite',
      extra: JSON.parse(deep(MAX_JSON_DEPTH)) as unknown,
    },
  });
  expect(tooDeep.status).toBe(400);
});

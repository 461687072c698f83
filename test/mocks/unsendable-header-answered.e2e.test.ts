// A learned profile may echo what the client sent in a header: a deployment that names the refused
// model in `x-model` is learned as `{"kind": "model"}`. Asked for the model "vidéo€", the core's
// answer then holds a header value beyond Latin-1; node's writeHead threw ERR_INVALID_CHAR out of the
// request handler and the client was never answered (a hang, or the process gone). The host now
// sends the answer without that header, naming it in `x-mock-dropped-headers`, and keeps serving.
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { afterEach, expect, it } from 'vitest';
import type { LearnedProfile } from '../../src/profile/index.ts';
import { startMockServer, type RunningMockServer } from '../../mocks/index.ts';

const OBSERVED = JSON.parse(
  readFileSync(new URL('../../mocks/profiles/observed.json', import.meta.url), 'utf8'),
) as LearnedProfile;
const CELL = 'createVideo n/a owner';

/** The observed profile, with its unknown-model refusal naming the model asked for in `x-model`. */
function echoingModel(): LearnedProfile {
  const profile = structuredClone(OBSERVED) as unknown as {
    answers: Record<string, Record<string, { headers: Record<string, unknown> }>>;
  };
  profile.answers[CELL]!['unknown-model']!.headers['x-model'] = { kind: 'model' };
  return { ...(profile as unknown as LearnedProfile), name: 'echoing' };
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A submission as alice; rejects (never hangs) when the connection closes unanswered. */
function submit(base: string, model: string): Promise<Answer> {
  const body = JSON.stringify({ model, prompt: 'a red kite' });
  const headers = { authorization: 'Bearer sk-mock-alice', 'content-type': 'application/json' };
  return new Promise((resolve, reject) => {
    const req = request(`${base}/v1/videos`, { method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.setTimeout(15_000, () => req.destroy(new Error('no answer within 15 s: the host hung')));
    req.end(body);
  });
}

let server: RunningMockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

it('answers a learned refusal whose header would echo a model name beyond Latin-1, without that header', async () => {
  server = await startMockServer({ port: 0, profile: echoingModel(), clock: { mode: 'manual' } });
  const sendable = await submit(server.url, 'video-nope');
  expect(sendable.headers['x-model']).toBe('video-nope');
  expect(sendable.headers['x-mock-dropped-headers']).toBeUndefined();

  for (const model of ['vidéo€', 'video\u2028']) {
    const answer = await submit(server.url, model);
    // The learned refusal, as it reads without the one header HTTP cannot carry.
    expect(answer.status).toBe(sendable.status);
    expect(answer.headers['x-model']).toBeUndefined();
    expect(answer.headers['x-mock-dropped-headers']).toBe('x-model');
    expect(answer.headers['x-oneapi-request-id']).toMatch(/^[0-9A-Za-z]{31}$/);
    expect(answer.headers['content-type']).toBe(sendable.headers['content-type']);
    expect(JSON.parse(answer.text)).toEqual(expect.any(Object));
  }
  // The host still serves.
  expect((await submit(server.url, 'video-nope')).status).toBe(sendable.status);
}, 60_000);

it('answers a JSON 500 mock_answer_invalid when even the head without such headers cannot be sent', async () => {
  // What a host's answerer (a cluster worker's relay) could hand over: a status HTTP has not.
  const answer = () => ({ status: 42, headers: { 'x-bad': 'a\u0001' }, body: '{}' });
  server = await startMockServer({ port: 0, answer });
  const refused = await submit(server.url, 'video-pro-v1');
  expect(refused.status).toBe(500);
  const body = JSON.parse(refused.text) as { error: { code: string; message: string } };
  expect(body.error.code).toBe('mock_answer_invalid');
  expect(body.error.message).toContain('Invalid status code: 42');
  expect(body.error.message).toContain('headers it could not send either: x-bad');
  expect(body.error.message).not.toMatch(/\n\s+at /); // no stack trace
  expect((await submit(server.url, 'video-pro-v1')).status).toBe(500); // and it keeps serving
}, 60_000);

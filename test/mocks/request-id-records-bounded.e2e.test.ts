// Issue 24 item 10: the mock counted submissions per X-Request-Id / Idempotency-Key without bound:
// 4,000 submissions with 12 KB request IDs added 65 MB to it (the documented cost is 136 B a task), and
// to its state file alike. An ID is now at most 255 characters (the spec's ClientRequestId; a longer
// one is a 400 naming the header and the limit), and the mock keeps the 10,000 IDs submitted most
// recently: an older one reads as never seen, and a submission with it again counts from 1.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLIENT_REQUEST_ID_RECORDS } from '../../mocks/core/state/shared-state.ts';
import { expectConformant } from '../helpers/conformance.ts';
import { coreClient } from '../helpers/core-client.ts';
import { killMockProcesses, listening, spawnMock } from '../helpers/mock-process.ts';
import { stateFileServices } from '../helpers/state-file-services.ts';

afterEach(killMockProcesses);
const { dir, open } = stateFileServices('videotask-request-ids-');
const BODY = { model: 'video-pro-v1', prompt: 'a red kite' };

describe('a request ID over 255 characters, over HTTP (a real mock process)', () => {
  it('is a 400 naming the header and the limit, and creates nothing; 255 is accepted', async () => {
    const mock = spawnMock('--port', '0', '--clock', 'manual');
    const base = await listening(mock, /secret: .*\n/);
    const post = (headers: Record<string, string>) =>
      fetch(`${base}/v1/videos`, {
        method: 'POST',
        headers: {
          authorization: 'Bearer sk-mock-alice',
          'content-type': 'application/json',
          ...headers,
        },
        body: JSON.stringify(BODY),
      });
    for (const header of ['X-Request-Id', 'Idempotency-Key']) {
      const refused = await post({ [header]: 'r'.repeat(12 * 1024) });
      expect(refused.status).toBe(400);
      // /v1/videos answers in the task envelope (code and message at the top).
      const body = (await refused.json()) as { code: string; message: string };
      expect(body.code).toBe('invalid_request');
      expect(body.message).toContain(
        `${header} is 12288 characters long: at most 255 are accepted`,
      );
      expect((await post({ [header]: 'r'.repeat(255) })).status).toBe(200);
    }
    const listing = (await (await fetch(`${base}/__mock/tasks`)).json()) as { tasks: unknown[] };
    expect(listing.tasks).toHaveLength(2); // only the two accepted
  });
});

describe('the records of request IDs', () => {
  it('declares the 400 it answers (the spec names the header and its limit)', () => {
    const { call } = coreClient();
    const answer = call('POST', '/v1/video/generations', {
      body: BODY,
      headers: { 'x-request-id': 'x'.repeat(256) },
    });
    expect(answer.status).toBe(400);
    expectConformant('createVideoGeneration', answer);
  });

  it(`keeps the ${CLIENT_REQUEST_ID_RECORDS} most recent IDs, however many are sent`, () => {
    const { service, call } = coreClient();
    const submit = (id: string) =>
      expect(
        call('POST', '/v1/video/generations', { body: BODY, headers: { 'x-request-id': id } })
          .status,
      ).toBe(200);
    const id = (n: number) => `req-${n}-${'p'.repeat(240)}`;
    const total = CLIENT_REQUEST_ID_RECORDS + 500;
    submit(id(0));
    for (let n = 1; n < total; n++) {
      submit(id(n));
      if (n === CLIENT_REQUEST_ID_RECORDS - 1) submit(id(0)); // sent again: now one of the most recent
    }
    const records = service.submissionsByClientRequestId;
    expect(records.size).toBe(CLIENT_REQUEST_ID_RECORDS);
    expect(records.get(id(0))).toBe(2);
    expect(records.has(id(1))).toBe(false); // the least recent are forgotten …
    expect(records.has(id(500))).toBe(false);
    expect(records.get(id(501))).toBe(1);
    expect(records.get(id(total - 1))).toBe(1);
    submit(id(1)); // … and a forgotten ID counts from 1 again
    expect(records.get(id(1))).toBe(1);
    expect(records.size).toBe(CLIENT_REQUEST_ID_RECORDS);
  }, 60_000);

  it('keeps the same records across a restart on a state file, which stays bounded too', () => {
    const path = join(dir, 'ids.state');
    const first = open(path, { stateFile: { path, compactAfter: 1_000 } });
    for (let n = 0; n < CLIENT_REQUEST_ID_RECORDS + 2_000; n++)
      first.call('POST', '/v1/video/generations', {
        body: BODY,
        headers: { 'idempotency-key': `key-${n}` },
      });
    const before = [...first.service.submissionsByClientRequestId];
    expect(before).toHaveLength(CLIENT_REQUEST_ID_RECORDS);
    first.service.stateFile!.close();
    const lines = readFileSync(path, 'utf8').split('\n');
    const kept = lines.filter((line) => line.startsWith('{"requestId"')).length;
    expect(kept).toBeLessThanOrEqual(CLIENT_REQUEST_ID_RECORDS);
    const second = open(path);
    expect([...second.service.submissionsByClientRequestId]).toEqual(before);
  }, 60_000);
});

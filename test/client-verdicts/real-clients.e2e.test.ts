import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import OpenAI from 'openai';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createHandlers,
  createMockService,
  startMockServer,
  type MockOptions,
  type MockService,
  type RunningMockServer,
} from '../../mocks/index.ts';
import { VideoTaskClient, submitWithRetry } from '../../src/index.ts';
import { downloadContent } from '../../src/node/index.ts';
import { runVideotask } from '../helpers/cli.ts';

// The clients this project ships and recommends keep every rule the mock judges: the typed client
// (submit with retry, the §8 poller, the download), the CLI's submit/wait/download with the journal,
// and the official openai SDK polled as §8 recommends. None may get a violation, nor advice.

const START = Date.UTC(2026, 10, 22);
const MANUAL = { clock: { mode: 'manual' as const, start: START } };
const KITE = { model: 'video-pro-v1', prompt: 'a red kite' };

const discard = () =>
  new Writable({
    write: (_chunk, _encoding, done) => done(),
  });

/** The typed client through msw, its waits moving the mock's clock (what a client team's test does). */
async function typedClientJob(service: MockService, prompt: string): Promise<void> {
  const client = new VideoTaskClient({ baseUrl: 'http://video.test', apiKey: 'sk-mock-alice' });
  const sleep = (ms: number) => {
    service.clock.advance(Math.round(ms));
    return Promise.resolve();
  };
  const clientRequestId = crypto.randomUUID();
  const task = await submitWithRetry(
    (id, signal) => client.submit({ ...KITE, prompt }, { clientRequestId: id, signal }),
    { clientRequestId, sleep },
  ).catch(() => undefined);
  if (task === undefined) return; // a rate-limited submission that stayed refused
  const { task: done } = await client.poll(task.id, { sleep, now: () => service.clock.now() });
  if (done.status === 'completed') await downloadContent(client, task.id, { to: discard() });
}

describe('the typed client (VideoTaskClient, submitWithRetry, client.poll) through msw', () => {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  it.each<[string, MockOptions]>([
    ['documented', {}],
    ['observed', { profile: 'observed' }],
    ['content by redirect', { contentRedirect: true }],
  ])('gets no verdict (%s)', async (_name, options) => {
    const service = createMockService({ ...MANUAL, seed: 'typed', ...options });
    server.resetHandlers(...createHandlers(service, { onClientViolation: 'error' }));
    for (const prompt of [
      'a red kite',
      'a kite [mock:unknown:45]',
      'a kite [mock:flaky]',
      'a kite [mock:fail]',
      'a kite [mock:slow]',
      'a kite [mock:rate-limit]',
    ])
      await typedClientJob(service, prompt);
    const report = service.clientReport();
    expect(report.verdicts).toEqual([]);
    expect(report.coverage.callers[0]!.met).toEqual(
      expect.arrayContaining(['openai:completed', 'openai:failed', 'query-5xx', 'submission-429']),
    );
  });
});

describe('the official openai SDK, polled as §8 recommends', () => {
  let server: RunningMockServer;
  beforeAll(async () => {
    server = await startMockServer({ ...MANUAL, port: 0, seed: 'sdk', profile: 'observed' });
  });
  afterAll(() => server.close());

  /** `retrieve` every 5 s × 1.5 up to 30 s, ×2 while `unknown`, stopping on completed or failed. */
  async function poll(client: OpenAI, id: string): Promise<string> {
    let status = 'queued';
    for (let n = 1; n <= 60 && status !== 'completed' && status !== 'failed'; n++) {
      const wait = Math.min(5_000 * 1.5 ** (n - 1), 30_000) * (status === 'unknown' ? 2 : 1);
      server.service.clock.advance(Math.round(wait));
      status = (await client.videos.retrieve(id)).status;
    }
    return status;
  }

  it('gets no violation and no advice: a note for the multipart of videos.create only', async () => {
    const client = new OpenAI({ apiKey: 'sk-mock-alice', baseURL: `${server.url}/v1` });
    for (const prompt of ['a red kite', 'a kite [mock:unknown:30]', 'a kite [mock:fail]']) {
      const created = await client.videos.create({ ...KITE, prompt });
      const status = await poll(client, created.id);
      if (status === 'completed')
        await (await client.videos.downloadContent(created.id)).arrayBuffer();
    }
    const json = await client.post<{ id: string }>('/videos', { body: KITE });
    await poll(client, json.id);
    const report = server.service.clientReport();
    expect(report.verdicts.map((v) => `${v.rule} ${v.outcome}`)).toEqual([
      'multipart-submission note',
    ]);
  });
});

describe('the CLI: submit, wait and download with the journal', () => {
  let server: RunningMockServer;
  let dir: string;
  beforeAll(async () => {
    server = await startMockServer({ ...MANUAL, port: 0, seed: 'cli' });
    dir = mkdtempSync(join(tmpdir(), 'videotask-verdicts-'));
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gets no verdict', async () => {
    const env = {
      ...process.env,
      VIDEOTASK_API_KEY: 'sk-mock-alice',
      VIDEOTASK_BASE_URL: server.url,
    };
    const journal = join(dir, 'tasks.jsonl');
    const fast = ['--poll-initial', '0.05', '--poll-max', '0.3'];
    // The mock's manual clock moves 5 s at a time while the CLI waits in real time: every interval
    // between two of its queries is a whole number of those steps (0 is not judged on a manual clock).
    const ticking = setInterval(() => server.service.clock.advance(5_000), 40);
    try {
      const submitted = await runVideotask(
        ['submit', '--model', 'video-pro-v1', '--prompt', 'a red kite', '--journal', journal],
        { env },
      );
      expect(submitted.code, submitted.stderr).toBe(0);
      const id = submitted.stdout.trim();
      const waited = await runVideotask(['wait', '--journal', journal, ...fast], { env });
      expect(waited.code, waited.stderr).toBe(0);
      const downloaded = await runVideotask(['download', id, '-o', join(dir, 'kite.mp4')], { env });
      expect(downloaded.code, downloaded.stderr).toBe(0);
    } finally {
      clearInterval(ticking);
    }
    const report = server.service.clientReport();
    expect(report.verdicts).toEqual([]);
    expect(report.counts.requests).toBeGreaterThanOrEqual(3);
  });
});

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createHandlers,
  createMockService,
  startMockServer,
  type MockService,
} from '../../mocks/index.ts';
import { SubmissionUnconfirmedError, VideoTaskClient, submitWithRetry } from '../../src/index.ts';
import { runVideotask } from '../helpers/cli.ts';
import { expectConformant, expectJsonError } from '../helpers/conformance.ts';
import { coreClient, coreRequest } from '../helpers/core-client.ts';
import { eventually } from '../helpers/eventually.ts';
import { killMockProcesses, listening, spawnMock } from '../helpers/mock-process.ts';

// §7 "Submission connection times out": the task was created, the answer never arrived. The scenario
// `lost-answer[:SECONDS]` lets a client team rehearse it: the task exists, the answer is dropped or held.
const KITE = { model: 'video-pro-v1', prompt: 'a red kite' };
const JSON_POST = (scenario: string) => ({
  method: 'POST',
  headers: {
    authorization: 'Bearer sk-mock-alice',
    'content-type': 'application/json',
    'x-mock-scenario': scenario,
  },
  body: JSON.stringify(KITE),
});
type Listed = { tasks: { id: string; owner: string; plan: { scenario?: string } }[] };
const listTasks = async (base: string) =>
  ((await (await fetch(`${base}/__mock/tasks`)).json()) as Listed).tasks;

/** A submission straight to the core, as a host hands it over (the answer's `lost` marking included). */
const handleSubmit = (service: MockService, scenario: string, body: object = KITE) =>
  service.handle(
    coreRequest('POST', '/v1/videos', { headers: { 'x-mock-scenario': scenario }, body }),
  );

describe('the core', () => {
  it.each([
    ['lost-answer', {}],
    ['lost-answer:2.5', { holdMs: 2500 }],
  ])('%s creates the task, answers it as usual and marks the answer lost', (scenario, lost) => {
    const { call, service } = coreClient();
    const response = handleSubmit(service, scenario);
    expect(response.status).toBe(200);
    expect(response.lost).toEqual(lost);
    const { id } = JSON.parse(response.body as string) as { id: string };
    service.clock.advance(120_000);
    expect((call('GET', `/v1/videos/${id}`).body as { status: string }).status).toBe('completed');
  });

  it('loses the answer of a native submission too, asked by a prompt tag on the OpenAI form', () => {
    const { call, service } = coreClient({ familyBound: true });
    const native = call('POST', '/alt-video/api/v3/contents/generations/tasks', {
      key: 'sk-mock-vip',
      body: { model: 'alt-video-v2', content: [{ type: 'text', text: 'b' }] },
      headers: { 'x-mock-scenario': 'lost-answer' },
    });
    expectConformant('createPluginTask', native);
    expect(service.store.size).toBe(1);
  });

  it.each(['lost-answer:x', 'lost-answer:-1', 'lost-answer:86401'])(
    'refuses %s with a clear 400 and creates nothing',
    (scenario) => {
      const { call, service } = coreClient();
      const refused = call('POST', '/v1/videos', {
        body: KITE,
        headers: { 'x-mock-scenario': scenario },
      });
      expectConformant('createVideo', refused);
      expectJsonError(refused, 400, /lost-answer takes a number of seconds \(0–86400\)/);
      expect(service.store.size).toBe(0);
    },
  );

  it('does not lose the answer of a refused submission: it is sent, and there is no task', () => {
    const { service } = coreClient();
    const blank = handleSubmit(service, 'lost-answer', { model: 'video-pro-v1', prompt: ' ' });
    expect(blank.status).toBe(400);
    expect(blank.lost).toBeUndefined();
    expect(service.store.size).toBe(0);
  });
});

describe('over real HTTP (node:http host)', () => {
  it('drops the connection once the task exists; the control API lists it; the server goes on', async () => {
    const server = await startMockServer({ port: 0, clock: { mode: 'manual' } });
    try {
      const dropped = await fetch(`${server.url}/v1/videos`, JSON_POST('lost-answer')).then(
        () => 'answered',
        (error: Error) => error.name,
      );
      expect(dropped).toBe('TypeError');
      const tasks = await listTasks(server.url);
      expect(tasks).toMatchObject([{ owner: 'alice', plan: { scenario: 'lost-answer' } }]);
      expect((await fetch(`${server.url}/v1/videos`, JSON_POST('succeed'))).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('holds the answer SECONDS: a client that waits longer gets it, one that waits less does not', async () => {
    const server = await startMockServer({ port: 0, clock: { mode: 'manual' } });
    try {
      const started = performance.now();
      const late = await fetch(`${server.url}/v1/videos`, JSON_POST('lost-answer:0.4'));
      expect(performance.now() - started).toBeGreaterThanOrEqual(390);
      expect(late.status).toBe(200);
      // A client that gives up once its task exists (an event, not a fixed time: a loaded machine may
      // take longer than any such time to create it) gets no answer.
      const giveUp = new AbortController();
      const impatient = fetch(`${server.url}/v1/videos`, {
        ...JSON_POST('lost-answer:30'),
        signal: giveUp.signal,
      }).then(
        () => 'answered',
        (error: Error) => error.name,
      );
      await eventually(
        async () => (await listTasks(server.url)).length === 2,
        'the held submission creates its task',
      );
      giveUp.abort();
      expect(await impatient).toBe('AbortError');
    } finally {
      await server.close();
    }
  });

  it.each([
    ['the dropped connection', 'lost-answer', 30_000],
    ['the timeout', 'lost-answer:30', 300],
  ])(
    'the reference client reports %s as unconfirmed, submits once and never resubmits',
    async (_name, scenario, requestTimeoutMs) => {
      const server = await startMockServer({ port: 0, clock: { mode: 'manual' } });
      try {
        const client = new VideoTaskClient({
          baseUrl: server.url,
          apiKey: 'sk-mock-alice',
          requestTimeoutMs,
        });
        const clientRequestId = `req-${scenario}`;
        const prompt = `a red kite [mock:${scenario}]`;
        const error = await submitWithRetry(
          (id, signal) => client.submit({ ...KITE, prompt }, { clientRequestId: id, signal }),
          { clientRequestId },
        ).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(SubmissionUnconfirmedError);
        expect((error as SubmissionUnconfirmedError).clientRequestId).toBe(clientRequestId);
        expect(server.service.submissionsByClientRequestId.get(clientRequestId)).toBe(1);
        expect(await listTasks(server.url)).toHaveLength(1);
      } finally {
        await server.close();
      }
    },
  );
});

describe('through msw', () => {
  const service = createMockService({ clock: { mode: 'manual' } });
  const server = setupServer(...createHandlers(service));
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => service.reset());
  afterAll(() => server.close());
  const BASE = 'http://video.test';

  it('answers lost-answer with a network error once the task exists', async () => {
    const outcome = await fetch(`${BASE}/v1/videos`, JSON_POST('lost-answer')).then(
      () => 'answered',
      (error: Error) => `${error.name}: ${error.message}`,
    );
    expect(outcome).toBe('TypeError: Failed to fetch');
    expect(service.store.size).toBe(1);
  });

  it('holds the answer of lost-answer:SECONDS past a shorter client timeout', async () => {
    const outcome = await fetch(`${BASE}/v1/videos`, {
      ...JSON_POST('lost-answer:1'),
      signal: AbortSignal.timeout(100),
    }).then(
      () => 'answered',
      (error: Error) => error.name,
    );
    expect(outcome).toBe('TimeoutError');
    expect(service.store.size).toBe(1);
  });
});

describe('the videotask commands against a videotask mock process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'videotask-lost-answer-'));
  afterAll(() => {
    killMockProcesses();
    rmSync(dir, { recursive: true, force: true });
  });

  it('submit --journal marks the lost submission unconfirmed; wait --journal never resubmits it', async () => {
    const mock = spawnMock('--port', '0', '--speed', '100');
    const base = await listening(mock, /listening/);
    const journal = join(dir, 'tasks.jsonl');
    const env = { ...process.env, VIDEOTASK_BASE_URL: base, VIDEOTASK_API_KEY: 'sk-mock-alice' };

    const submitted = await runVideotask(
      [
        'submit',
        '--model',
        'video-pro-v1',
        '--prompt',
        'a kite [mock:lost-answer]',
        '--journal',
        journal,
      ],
      { env },
    );
    expect(submitted.code).toBe(1);
    expect(submitted.stdout).toBe('');
    expect(submitted.stderr).toMatch(/Do NOT resubmit blindly \(§7\)/);
    expect(submitted.stderr).toMatch(/marks client request vt-[0-9a-f-]+ as unconfirmed/);
    const entries = readFileSync(journal, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; clientRequestId: string });
    expect(entries.map((e) => e.type)).toEqual(['submitting', 'unconfirmed']);

    const waited = await runVideotask(['wait', '--journal', journal], { env });
    expect(waited.stderr).toContain(`check by hand`);
    expect(waited.stderr).toContain(entries[0]!.clientRequestId);
    expect(await listTasks(base)).toHaveLength(1);
    expect(readFileSync(journal, 'utf8').trim().split('\n')).toHaveLength(2);
  });
});

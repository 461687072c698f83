import { build } from 'esbuild';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers, createMockService, type MockService } from '../../mocks/index.ts';
import { browserTestsRun, CHROMIUM, CHROMIUM_ARGS, requireChromium } from '../helpers/chromium.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Issue 22 ("Day-one friction") and issue 24 item 11: the msw catch-alls (`/\/v1\//i`,
 * `/\/__mock\//i`) matched anywhere in any URL, so the application's own `/api/v1/users` and another
 * API's `/v1/charges` got the mock's 404 instead of the test's handlers or `onUnhandledRequest`; and
 * nothing scoped the handlers to the service's address (OpenAI's `/v1/videos` has the same paths).
 * Now paths match from their start, only the paths the service declares (and the mock's own
 * `/__mock/`, `/__artifacts/`) are the mock's, and `createHandlers(service, { baseUrl })` answers
 * that origin and base path only.
 */
const ALICE = { authorization: 'Bearer sk-mock-alice', 'content-type': 'application/json' };
const SUBMISSION = JSON.stringify({ model: 'video-pro-v1', prompt: 'a red kite' });

/** What reached msw's `onUnhandledRequest`; it answers them with a network error. */
const unhandled: string[] = [];
/** The test's own handler, listed after the mock's: everything it answers, the mock did not take. */
const ownHandler = http.all('*', ({ request }) =>
  HttpResponse.json({ answeredBy: 'the test' }, { status: 299, statusText: request.method }),
);
const server = setupServer();

beforeAll(() =>
  server.listen({
    onUnhandledRequest(request) {
      unhandled.push(`${request.method} ${request.url}`);
      throw new Error('unhandled');
    },
  }),
);
afterEach(() => {
  server.resetHandlers();
  unhandled.length = 0;
});
afterAll(() => server.close());

async function statusOf(url: string, init: RequestInit = {}): Promise<number | 'unhandled'> {
  const before = unhandled.length;
  const response = await fetch(url, init);
  await response.arrayBuffer();
  return unhandled.length > before ? 'unhandled' : response.status;
}

describe('without baseUrl (any origin)', () => {
  let service: MockService;
  beforeAll(() => (service = createMockService({ clock: { mode: 'manual' }, seed: 1 })));

  it("lets the application's own /api/v1/… and /api/__mock/… reach the test's handler", async () => {
    server.resetHandlers(...createHandlers(service), ownHandler);
    expect(await statusOf('https://myapp.example/api/v1/users')).toBe(299);
    expect(await statusOf('https://myapp.example/api/v1/videos')).toBe(299);
    expect(await statusOf('https://myapp.example/docs/__mock/reset', { method: 'POST' })).toBe(299);
  });

  it("sends another API's /v1 paths, which the service does not declare, to onUnhandledRequest", async () => {
    server.resetHandlers(...createHandlers(service));
    expect(
      await statusOf('https://payments.example/v1/charges', { method: 'POST', body: '{}' }),
    ).toBe('unhandled');
    expect(await statusOf('https://video.example/v1/chat/completions', { method: 'POST' })).toBe(
      'unhandled',
    );
    expect(await statusOf('https://video.example/v1/videos/task_x/remix', { method: 'POST' })).toBe(
      'unhandled',
    );
    expect(unhandled).toEqual([
      'POST https://payments.example/v1/charges',
      'POST https://video.example/v1/chat/completions',
      'POST https://video.example/v1/videos/task_x/remix',
    ]);
  });

  it("answers the service's own paths on any origin, other methods with 405, its own namespaces with 404", async () => {
    server.resetHandlers(...createHandlers(service));
    expect(await statusOf('https://anywhere.example/v1/models', { headers: ALICE })).toBe(200);
    const wrongMethod = await fetch('https://anywhere.example/v1/videos/task_x', {
      method: 'DELETE',
      headers: ALICE,
    });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET, HEAD');
    expect(await statusOf('https://anywhere.example/__mock/nothing')).toBe(404);
    expect(await statusOf('https://anywhere.example/__artifacts/a/b')).toBe(404);
    expect(unhandled).toEqual([]);
  });
});

describe('with baseUrl', () => {
  const BASE = 'https://gateway.example/video';
  let service: MockService;
  beforeAll(() => (service = createMockService({ clock: { mode: 'manual' }, seed: 2 })));

  it('serves the whole service under that origin and base path, result addresses included', async () => {
    server.resetHandlers(...createHandlers(service, { baseUrl: `${BASE}/` }), ownHandler);
    const submitted = await fetch(`${BASE}/v1/videos`, {
      method: 'POST',
      headers: ALICE,
      body: SUBMISSION,
    });
    expect(submitted.status).toBe(200);
    const { id } = (await submitted.json()) as { id: string };
    service.clock.advance(10 * 60_000);
    const task = (await (await fetch(`${BASE}/v1/videos/${id}`, { headers: ALICE })).json()) as {
      status: string;
      metadata: { url: string };
    };
    expect(task.status).toBe('completed');
    expect(task.metadata.url.startsWith(`${BASE}/__artifacts/${id}.mp4?`)).toBe(true);
    expect(await statusOf(task.metadata.url)).toBe(200);
    expect(await statusOf(`${BASE}/v1/videos/${id}/content`, { headers: ALICE })).toBe(200);
    const listed = await fetch(`${BASE}/__mock/tasks`);
    expect(((await listed.json()) as { tasks: unknown[] }).tasks).toHaveLength(1);
  });

  it('leaves other origins, and paths the service does not declare, to the test', async () => {
    server.resetHandlers(...createHandlers(service, { baseUrl: BASE }), ownHandler);
    for (const url of [
      'https://api.openai.example/v1/videos',
      'https://gateway.example/v1/videos', // the origin without the base path
      'https://gateway.example/videos/v1/videos', // a base path that only begins the same way
      `${BASE}/v1/chat/completions`, // the gateway serves other APIs too
      `${BASE}/api/v1/users`,
    ])
      expect(await statusOf(url, { method: 'POST', headers: ALICE, body: SUBMISSION }), url).toBe(
        299,
      );
    expect(service.store.size).toBe(1);
  });

  it('sends what it does not answer to onUnhandledRequest', async () => {
    server.resetHandlers(...createHandlers(service, { baseUrl: BASE }));
    expect(await statusOf('https://payments.example/v1/charges', { method: 'POST' })).toBe(
      'unhandled',
    );
    expect(await statusOf('https://other.example/v1/models', { headers: ALICE })).toBe('unhandled');
    expect(await statusOf(`${BASE}/v1/nothing`, { headers: ALICE })).toBe('unhandled');
  });

  it('refuses a baseUrl that is not an http(s) origin with an optional path', () => {
    for (const baseUrl of ['video.example', 'ftp://video.example', 'https://k:s@video.example'])
      expect(() => createHandlers(service, { baseUrl }), baseUrl).toThrow(TypeError);
    expect(() => createHandlers(service, { baseUrl: 'https://video.example/?x=1' })).toThrow(
      /without a query/,
    );
  });
});

/**
 * The same in a real browser (msw's setupWorker, Debian's chromium): the page's own backend under
 * `/api/v1/…` is reached, and with a relative `baseUrl` (resolved against the page) the mock answers
 * under it only, while the same service paths outside it go to the backend.
 */
describe('in the browser (setupWorker)', () => {
  const runs = browserTestsRun('test/mocks/msw-handlers-scoped.e2e.test.ts');
  let folder: string;
  let backend: { server: Server; url: string; served: string[] };
  let browser: Browser;

  beforeAll(async () => {
    if (!runs) return;
    requireChromium();
    folder = mkdtempSync(join(tmpdir(), 'videotask-msw-scope-'));
    await build({
      stdin: { contents: PAGE, resolveDir: ROOT, loader: 'ts' },
      outfile: join(folder, 'page.js'),
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      logLevel: 'silent',
    });
    writeFileSync(
      join(folder, 'index.html'),
      '<!doctype html><script type="module" src="/page.js"></script>',
    );
    copyFileSync(
      join(ROOT, 'node_modules/msw/lib/mockServiceWorker.js'),
      join(folder, 'mockServiceWorker.js'),
    );
    backend = await serveBackend(folder);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS] });
  }, 60_000);
  afterAll(async () => {
    if (!runs) return;
    await browser?.close();
    await new Promise((resolve) => backend?.server.close(resolve));
    rmSync(folder, { recursive: true, force: true });
  });

  async function visit(query: string): Promise<Record<string, unknown>> {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${backend.url}/${query}`);
      const body = page.locator('body[data-result], body[data-error]');
      await body.waitFor({ state: 'attached', timeout: 30_000 });
      const error = await page.locator('body').getAttribute('data-error');
      if (error !== null) throw new Error(`the page failed: ${error}`);
      return JSON.parse((await page.locator('body').getAttribute('data-result'))!) as Record<
        string,
        unknown
      >;
    } finally {
      await context.close();
    }
  }

  it.runIf(runs)("lets the page's own /api/v1/… reach its backend", async () => {
    backend.served.length = 0;
    const result = await visit('');
    expect(result).toMatchObject({ users: { backend: true }, submitted: 200 });
    expect(backend.served).toContain('/api/v1/users');
    expect(backend.served.filter((p) => p.startsWith('/v1/'))).toEqual([]);
  });

  it.runIf(runs)('answers under a relative baseUrl only', async () => {
    backend.served.length = 0;
    const result = await visit('?baseUrl=/video');
    expect(result).toMatchObject({ users: { backend: true }, submitted: 200, outside: 404 });
    expect(backend.served).toEqual(expect.arrayContaining(['/api/v1/users', '/v1/models']));
    expect(backend.served.filter((p) => p.startsWith('/video/'))).toEqual([]);
  });
});

/** The page: a service worker with the mock's handlers, then its own backend and the service. */
const PAGE = `
import { setupWorker } from 'msw/browser';
import { createHandlers, createMockService } from './mocks/neutral.ts';

async function run() {
  const baseUrl = new URLSearchParams(location.search).get('baseUrl') ?? undefined;
  const service = createMockService({ clock: { mode: 'manual' } });
  const worker = setupWorker(...createHandlers(service, { baseUrl }));
  await worker.start({ quiet: true, onUnhandledRequest: 'bypass' });
  const headers = { authorization: 'Bearer sk-mock-alice', 'content-type': 'application/json' };
  const users = await (await fetch('/api/v1/users')).json();
  const submitted = await fetch((baseUrl ?? '') + '/v1/videos', {
    method: 'POST',
    headers,
    body: JSON.stringify({ model: 'video-pro-v1', prompt: 'a red kite' }),
  });
  const outside = baseUrl === undefined ? undefined : (await fetch('/v1/models', { headers })).status;
  return { users, submitted: submitted.status, outside };
}
run().then(
  (result) => (document.body.dataset.result = JSON.stringify(result)),
  (error) => (document.body.dataset.error = String(error)),
);
`;

/** The page's origin: its files, its own API (`/api/v1/users`), and a JSON 404 for anything else. */
function serveBackend(folder: string): Promise<{ server: Server; url: string; served: string[] }> {
  const served: string[] = [];
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    served.push(path);
    const file = {
      '/': 'index.html',
      '/page.js': 'page.js',
      '/mockServiceWorker.js': 'mockServiceWorker.js',
    }[path];
    if (file !== undefined) {
      const type = file.endsWith('.html') ? 'text/html' : 'text/javascript';
      response.writeHead(200, { 'content-type': type }).end(readFileSync(join(folder, file)));
    } else if (path === '/api/v1/users') {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"backend":true}');
    } else {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    }
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ server, url: `http://127.0.0.1:${port}`, served });
    }),
  );
}

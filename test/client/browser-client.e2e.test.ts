import { build } from 'esbuild';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { browserTestsRun, CHROMIUM, CHROMIUM_ARGS, requireChromium } from '../helpers/chromium.ts';
import { blocksOf, localized } from '../docs/doc-blocks.ts';

/**
 * The package's root export is the client of a web page too (issue 23): bundled for the browser with
 * the mock's environment-neutral handlers behind msw's `setupWorker`, in Debian's chromium, it
 * submits, polls a task to `completed` with `client.poll` on the page's own timers, reads the video as
 * a stream, returns a failed task as data and throws its typed errors.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const runs = browserTestsRun('test/client/browser-client.e2e.test.ts');
let folder: string;
let site: { server: Server; url: string };
let browser: Browser;

beforeAll(async () => {
  if (!runs) return;
  requireChromium();
  folder = mkdtempSync(join(tmpdir(), 'videotask-browser-client-'));
  for (const [name, contents] of [
    ['page', PAGE],
    ['docs-page', docsPage()],
  ] as const) {
    await build({
      stdin: { contents, resolveDir: ROOT, loader: 'ts' },
      outfile: join(folder, `${name}.js`),
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      logLevel: 'silent',
    });
    writeFileSync(
      join(folder, `${name}.html`),
      `<!doctype html><script type="module" src="/${name}.js"></script>`,
    );
  }
  copyFileSync(
    join(ROOT, 'node_modules/msw/lib/mockServiceWorker.js'),
    join(folder, 'mockServiceWorker.js'),
  );
  site = await serve(folder);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS] });
}, 60_000);

afterAll(async () => {
  if (!runs) return;
  await browser?.close();
  await new Promise((resolve) => site?.server.close(resolve));
  rmSync(folder, { recursive: true, force: true });
});

it.runIf(runs)(
  'polls a task to completed with the root-export client against setupWorker',
  async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(site.url);
    const body = page.locator('body[data-result], body[data-error]');
    await body.waitFor({ state: 'attached', timeout: 60_000 });
    const error = await page.locator('body').getAttribute('data-error');
    expect(error, problems.join('\n')).toBeNull();
    const result = JSON.parse((await page.locator('body').getAttribute('data-result'))!) as Record<
      string,
      unknown
    >;
    expect(result).toMatchObject({
      submitted: 'queued',
      final: 'completed',
      contentType: 'video/mp4',
      bytes: 6592,
      box: 'ftyp',
      failed: { status: 'failed', code: 'ContentPolicy' },
      refused: { name: 'NotFoundError', status: 404, serviceRequestId: true, keyShown: false },
    });
    expect((result['statuses'] as string[]).at(-1)).toBe('completed');
    expect(result['attempts']).toBeGreaterThan(1);
    expect(problems).toEqual([]);
  },
  90_000,
);

// Issue 35 item 1: docs/client.md's browser example, `new VideoTaskClient({ baseUrl: '/', apiKey })`,
// threw `baseUrl "/" is not a URL` in chromium; the test above used `location.origin`, so the
// example as written never ran. It runs here as written, on a page under /docs/ (a relative base URL
// is read against the page's address: '/' is the page's origin).
it.runIf(runs)(
  "runs docs/client.md's browser example as written (baseUrl: '/')",
  async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(new URL('/docs/', site.url).href);
    const body = page.locator('body[data-result], body[data-error]');
    await body.waitFor({ state: 'attached', timeout: 60_000 });
    const error = await page.locator('body').getAttribute('data-error');
    expect(error, problems.join('\n')).toBeNull();
    const result = JSON.parse((await page.locator('body').getAttribute('data-result'))!) as Record<
      string,
      unknown
    >;
    expect(result).toEqual({ status: 'completed', baseUrl: new URL(site.url).origin, blob: true });
    expect(problems).toEqual([]);
  },
  90_000,
);

/** docs/client.md's block that constructs the client with `baseUrl: '/'` (the browser example). */
function docsExample(): string {
  const block = blocksOf('docs/client.md').find(
    (b) => b.lang === 'ts' && b.text.includes("baseUrl: '/'"),
  );
  if (block === undefined) throw new Error("docs/client.md has no ts block with baseUrl: '/'");
  return localized(block, '');
}

/**
 * A page running the docs' example as written: its imports first, then its body once the mock's
 * worker serves the page's origin, with the names the example leaves to the page (`apiKey`, `render`,
 * `player`) defined, and what it did reported on the page.
 */
function docsPage(): string {
  const lines = docsExample().split('\n');
  const imports = lines.filter((line) => line.startsWith('import '));
  const body = lines.filter((line) => !line.startsWith('import '));
  return `
import { setupWorker } from 'msw/browser';
import { createHandlers, createMockService } from './mocks/neutral.ts';
${imports.join('\n')}

const apiKey = 'sk-mock-alice';
const render = () => undefined;
const player = { src: '' };

async function run() {
  const service = createMockService({ speed: 100, seed: 'browser-docs' });
  const worker = setupWorker(...createHandlers(service, { baseUrl: location.origin }));
  await worker.start({ quiet: true, onUnhandledRequest: 'error' });
${body.join('\n')}
  return { status: done.status, baseUrl: client.baseUrl, blob: player.src.startsWith('blob:') };
}
run().then(
  (result) => (document.body.dataset.result = JSON.stringify(result)),
  (error) => (document.body.dataset.error = String(error) + ' ' + (error?.stack ?? '')),
);
`;
}

/**
 * The page: the mock in a service worker, the client of `src/index.ts` (what `videotask` resolves to)
 * with the page's real timers; the mock's clock runs at 100×, so §8's loop is shortened to match.
 */
const PAGE = `
import { setupWorker } from 'msw/browser';
import { VideoTaskClient, submitWithRetry } from './src/index.ts';
import { createHandlers, createMockService } from './mocks/neutral.ts';

const KEY = 'sk-mock-alice';

async function run() {
  const service = createMockService({ speed: 100, seed: 'browser-client' });
  const worker = setupWorker(...createHandlers(service, { baseUrl: location.origin }));
  await worker.start({ quiet: true, onUnhandledRequest: 'error' });
  const client = new VideoTaskClient({ baseUrl: location.origin, apiKey: KEY });
  const body = { model: 'video-pro-v1', prompt: 'a red kite over the page' };
  const clientRequestId = crypto.randomUUID();
  const task = await submitWithRetry(
    (id, signal) => client.submit(body, { clientRequestId: id, signal }),
    { clientRequestId },
  );
  const statuses = [];
  const poll = { initialIntervalMs: 50, maxIntervalMs: 200, timeoutMs: 60_000 };
  const onUpdate = (t) => statuses.push(t.status);
  const { task: done, attempts } = await client.poll(task.id, { ...poll, onUpdate });
  const video = await client.content(done.id);
  const bytes = new Uint8Array(await new Response(video.body).arrayBuffer());
  const doomed = await client.submit({ ...body, prompt: 'a storm [mock:fail:ContentPolicy]' });
  const { task: failed } = await client.poll(doomed.id, poll);
  const refused = await client.getVideo('task_missing').catch((error) => error);
  return {
    submitted: task.status,
    statuses,
    attempts,
    final: done.status,
    contentType: video.contentType,
    bytes: bytes.length,
    box: String.fromCharCode(...bytes.subarray(4, 8)),
    failed: { status: failed.status, code: failed.error?.code },
    refused: {
      name: refused.name,
      status: refused.status,
      serviceRequestId: typeof refused.serviceRequestId === 'string',
      keyShown: String(refused).includes(KEY) || refused.message.includes(KEY),
    },
  };
}
run().then(
  (result) => (document.body.dataset.result = JSON.stringify(result)),
  (error) => (document.body.dataset.error = String(error) + ' ' + (error?.stack ?? '')),
);
`;

/** The page's files on 127.0.0.1 (a secure context: service workers are allowed there). */
function serve(dir: string): Promise<{ server: Server; url: string }> {
  const FILES: Readonly<Record<string, string>> = {
    '/': 'page.html',
    '/page.js': 'page.js',
    '/docs/': 'docs-page.html',
    '/docs-page.js': 'docs-page.js',
    '/mockServiceWorker.js': 'mockServiceWorker.js',
  };
  const server = createServer((request, response) => {
    const file = FILES[new URL(request.url ?? '/', 'http://x').pathname];
    if (file === undefined) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    const type = file.endsWith('.html') ? 'text/html' : 'text/javascript';
    response.writeHead(200, { 'content-type': type }).end(readFileSync(join(dir, file)));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ server, url: `http://127.0.0.1:${port}/` });
    }),
  );
}

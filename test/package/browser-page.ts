import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { build } from 'esbuild';
import { chromium, type Request } from 'playwright-core';
import type { ConsumerProject } from './consumer-project.ts';
import { CHROMIUM, CHROMIUM_ARGS } from '../helpers/chromium.ts';

/** Debian's chromium (scripts/ensure-chromium.sh installs it), as the /docs page test uses it. */
const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
};

export interface PageVisit {
  /** What the page's script reported (`document.body.dataset.result`, parsed). */
  readonly result: Record<string, unknown>;
  /** Paths the static server was asked for: the service's routes must never reach it. */
  readonly served: readonly string[];
  /** Console errors, page errors and failed requests. */
  readonly problems: readonly string[];
  /**
   * Requests Chromium reported aborted after their whole answer had come from the service worker
   * (`abortedAfterAnswer`): the page's own byte counts say whether the body was complete.
   */
  readonly abortedAfterAnswer: readonly string[];
}

/**
 * Chromium 156 sometimes reports a service worker's answer as `net::ERR_ABORTED` when the page reads
 * its body through a stream reader, after the last byte arrived (measured with this page: a plain
 * `fetch` read by `getReader()` 32 of 60 visits, `VideoTaskClient.content` 5 of 60, the same `fetch`
 * read by `arrayBuffer()` 0 of 360; the page had every byte each time). Such a request is set apart;
 * any other failure is a problem of the page.
 */
async function failure(request: Request): Promise<{ text: string; afterAnswer: boolean }> {
  const text = `failed: ${request.url()} ${request.failure()?.errorText}`;
  const response = await request.response().catch(() => null);
  const afterAnswer =
    request.failure()?.errorText === 'net::ERR_ABORTED' &&
    response !== null &&
    response.fromServiceWorker() &&
    response.ok() &&
    request.timing().responseEnd > 0;
  return { text, afterAnswer };
}

/** Bundles browser/page.ts with esbuild as the consumer would (platform browser: videotask's browser build). */
export async function bundlePage(project: ConsumerProject): Promise<void> {
  await build({
    absWorkingDir: project.dir,
    entryPoints: ['browser/page.ts'],
    outfile: 'browser/page.js',
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'silent',
  });
}

/** Serves the folder's files on 127.0.0.1 (a secure context: service workers are allowed there). */
function serveFolder(folder: string, served: string[]): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    served.push(path);
    const file = join(folder, normalize(path === '/' ? '/index.html' : path));
    if (!file.startsWith(folder) || !existsSync(file)) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    response.writeHead(200, { 'content-type': type }).end(readFileSync(file));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ server, url: `http://127.0.0.1:${port}/` });
    }),
  );
}

/** Opens the page in headless chromium and waits for its script to report. */
export async function visitPage(project: ConsumerProject): Promise<PageVisit> {
  const served: string[] = [];
  const problems: string[] = [];
  const failures: Promise<{ text: string; afterAnswer: boolean }>[] = [];
  const { server, url } = await serveFolder(join(project.dir, 'browser'), served);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [...CHROMIUM_ARGS],
  });
  try {
    const page = await browser.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('requestfailed', (r) => failures.push(failure(r)));
    await page.goto(url);
    const reported = page.locator('body[data-result], body[data-error]');
    await reported.waitFor({ state: 'attached', timeout: 30_000 });
    const error = await page.locator('body').getAttribute('data-error');
    if (error !== null) throw new Error(`the page failed: ${error}\n${problems.join('\n')}`);
    const result = await page.locator('body').getAttribute('data-result');
    // Read before the browser closes: closing aborts whatever it still has open.
    const failed = await Promise.all(failures);
    return {
      result: JSON.parse(result!) as Record<string, unknown>,
      served,
      problems: [...problems, ...failed.filter((f) => !f.afterAnswer).map((f) => f.text)],
      abortedAfterAnswer: failed.filter((f) => f.afterAnswer).map((f) => f.text),
    };
  } finally {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
  }
}

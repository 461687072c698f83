import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMockService,
  startMockServer,
  type MockService,
  type RunningMockServer,
} from '../../mocks/index.ts';
import { serviceSpec } from '../../src/spec/load-spec.ts';
import { BUILT_IN_TOKENS } from '../../mocks/core/keys/tokens.ts';
import { browserTestsRun, CHROMIUM, CHROMIUM_ARGS, requireChromium } from '../helpers/chromium.ts';

/**
 * The API reference page at /docs, as a person sees it: Debian's chromium (installed by
 * scripts/ensure-chromium.sh, run as `pretest`) driven by playwright-core. Set DOCS_SCREENSHOT=/tmp/x.png
 * to keep a full-page screenshot after the "try it" requests.
 */
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** Every operation of the spec, as Swagger UI labels it. */
const OPERATIONS = Object.entries(
  serviceSpec.paths as Record<string, Record<string, { operationId?: string }>>,
)
  .flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.has(method))
      .map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        operationId: op.operationId ?? '',
      })),
  )
  .sort((a, b) => a.operationId.localeCompare(b.operationId));

const runs = browserTestsRun('test/docs/docs-page.e2e.test.ts');
let server: RunningMockServer;
let service: MockService;
let browser: Browser;
let page: Page;
/** What reached the service core (the /docs files never do). */
const seen: { method: string; path: string; authorization: string | undefined }[] = [];
/** Every request the page made, and what went wrong in it. */
const requested: string[] = [];
const problems: string[] = [];

beforeAll(async () => {
  if (!runs) return;
  requireChromium();
  service = createMockService({ clock: { mode: 'manual' }, seed: 1 });
  const handle = service.handle.bind(service);
  service.handle = (request) => {
    seen.push({
      method: request.method,
      path: request.path,
      authorization: request.headers['authorization'],
    });
    return handle(request);
  };
  server = await startMockServer({ port: 0, service });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [...CHROMIUM_ARGS],
  });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('request', (r) => requested.push(r.url()));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning')
      problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) =>
    problems.push(`request failed: ${r.url()} ${r.failure()?.errorText ?? ''}`),
  );
  await page.goto(`${server.url}/docs`);
  await page.locator('.opblock').first().waitFor({ timeout: 15_000 });
});
afterAll(async () => {
  if (process.env['DOCS_SCREENSHOT'] && page !== undefined)
    await page.screenshot({ path: process.env['DOCS_SCREENSHOT'], fullPage: true });
  await browser?.close();
  await server?.close();
});

/** The operation block for METHOD PATH. */
function operation(method: string, path: string) {
  return page
    .locator(`.opblock.opblock-${method.toLowerCase()}`)
    .filter({ has: page.locator(`.opblock-summary-path[data-path="${path}"]`) });
}

async function tryIt(method: string, path: string) {
  const block = operation(method, path);
  await block.locator('.opblock-summary').first().click();
  await block.getByRole('button', { name: 'Try it out' }).click();
  await block.getByRole('button', { name: 'Execute' }).click();
  const answer = block.locator('.live-responses-table tr.response');
  await answer.waitFor({ timeout: 10_000 });
  return {
    status: (await answer.locator('.response-col_status').innerText()).trim(),
    body: await answer.locator('.response-col_description').innerText(),
  };
}

describe.runIf(runs)('API reference page (/docs)', () => {
  it('shows every operation of spec/openapi.yaml', async () => {
    expect(OPERATIONS).toHaveLength(9);
    const shown = await page.locator('.opblock').evaluateAll((blocks) =>
      blocks.map((b) => ({
        method: b.querySelector('.opblock-summary-method')?.textContent ?? '',
        path: b.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '',
        operationId: b.querySelector('.opblock-summary-operation-id')?.textContent ?? '',
      })),
    );
    expect(shown.sort((a, b) => a.operationId.localeCompare(b.operationId))).toEqual(OPERATIONS);
    expect(await page.title()).toContain('API reference');
  });

  it('points "try it" at the mock with a built-in key pre-authorized and lists the other keys', async () => {
    await expect
      .poll(() => page.locator('.servers select option').first().getAttribute('value'))
      .toBe(server.url);
    await expect
      .poll(() => page.locator('button.btn.authorize').getAttribute('class'))
      .toContain('locked');
    const banner = await page.locator('#mock-banner').innerText();
    for (const token of BUILT_IN_TOKENS) expect(banner).toContain(token.key);
    expect(banner).toContain('Bearer sk-mock-alice');
  });

  it('"try it" on GET /v1/models reaches the mock and shows its 200 answer', async () => {
    const before = seen.length;
    const { status, body } = await tryIt('GET', '/v1/models');
    expect(status).toBe('200');
    expect(body).toContain('video-pro-v1');
    expect(body).toContain('video-lite-v1');
    expect(seen.slice(before)).toContainEqual({
      method: 'GET',
      path: '/v1/models',
      authorization: 'Bearer sk-mock-alice',
    });
  });

  it('"try it" on POST /v1/video/generations submits the example body and creates a task', async () => {
    expect(service.store.size).toBe(0);
    const { status, body } = await tryIt('POST', '/v1/video/generations');
    expect(status).toBe('200');
    expect(body).toMatch(/"status": "queued"/);
    expect(service.store.size).toBe(1);
    expect(seen.filter((r) => r.method === 'POST' && r.path === '/v1/video/generations')).toEqual([
      { method: 'POST', path: '/v1/video/generations', authorization: 'Bearer sk-mock-alice' },
    ]);
  });

  it('fetched nothing outside the mock and logged no error', () => {
    const origin = new URL(server.url).origin;
    expect(requested.length).toBeGreaterThan(5);
    expect(
      requested.filter((url) => !url.startsWith('data:') && new URL(url).origin !== origin),
    ).toEqual([]);
    expect(problems).toEqual([]);
  });
});

import { build, type Metafile } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type * as CoreService from '../../mocks/core/service/service.ts';
import OBSERVED from '../../mocks/profiles/observed.json' with { type: 'json' };

// The mock's core must load and run in a browser (msw's setupWorker): nothing that createHandlers or
// createMockService pulls in may import a Node module or a Node-only package, at load or at run time.

const root = fileURLToPath(new URL('../..', import.meta.url));
const NODE_ONLY_PACKAGES = ['@apidevtools/swagger-parser', 'swagger-ui-dist', 'tsx', 'msw/node'];

async function bundleForBrowser(
  entry: string,
  format: 'esm' | 'iife',
): Promise<{ text: string; metafile: Metafile }> {
  const result = await build({
    entryPoints: [`${root}/${entry}`],
    bundle: true,
    platform: 'browser',
    format,
    ...(format === 'iife' ? { globalName: 'core' } : {}),
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return { text: result.outputFiles[0]!.text, metafile: result.metafile };
}

function importsOf(metafile: Metafile): string[] {
  return Object.values(metafile.inputs).flatMap((input) => input.imports.map((i) => i.path));
}

/** Only what a browser page has: no process, Buffer, require or node: modules. */
function browserGlobals(): Record<string, unknown> {
  return {
    TextEncoder,
    TextDecoder,
    URL,
    URLSearchParams,
    atob,
    btoa,
    crypto: { getRandomValues: crypto.getRandomValues.bind(crypto) },
    performance: { now: () => performance.now(), timeOrigin: performance.timeOrigin },
    console,
  };
}

describe('the environment-neutral core', () => {
  it('bundles for the browser from mocks/neutral.ts without a Node module or a Node-only package', async () => {
    const { metafile } = await bundleForBrowser('mocks/neutral.ts', 'esm');
    const imports = importsOf(metafile);
    expect(imports.filter((path) => path.startsWith('node:'))).toEqual([]);
    const inputs = Object.keys(metafile.inputs);
    for (const name of NODE_ONLY_PACKAGES)
      expect(inputs.filter((path) => path.includes(`node_modules/${name}/`))).toEqual([]);
    expect(inputs.some((path) => path.includes('mocks/msw/handlers.ts'))).toBe(true);
    expect(inputs.some((path) => path.includes('mocks/node/'))).toBe(false);
    // The core takes wrappers and knows no defect (decisions/029): the catalog stays on the Node side.
    expect(inputs.filter((path) => path.includes('mocks/defects/'))).toEqual([]);
  });

  it('fails the bundle when a Node module is reachable (the check above can fail)', async () => {
    await expect(bundleForBrowser('mocks/index.ts', 'esm')).rejects.toThrow(
      /node:|built into node|Could not resolve/,
    );
  });

  it('answers a submission, a status query and the video in a context without Node globals', async () => {
    const { text } = await bundleForBrowser('mocks/core/service/service.ts', 'iife');
    const context = browserGlobals();
    runInNewContext(text, context);
    const { createMockService } = context['core'] as typeof CoreService;
    const service = createMockService({ clock: { mode: 'manual' } });
    const headers = { authorization: 'Bearer sk-mock-alice', 'content-type': 'application/json' };
    const request = { query: '', headers, origin: 'http://page.test' };
    const body = new TextEncoder().encode(
      JSON.stringify({ model: 'video-pro-v1', prompt: 'kite' }),
    );
    const submitted = service.handle({ ...request, method: 'POST', path: '/v1/videos', body });
    expect(submitted.status).toBe(200);
    const { id } = JSON.parse(submitted.body as string) as { id: string };
    service.clock.advance(10 * 60_000);
    const status = service.handle({ ...request, method: 'GET', path: `/v1/videos/${id}` });
    expect(JSON.parse(status.body as string)).toMatchObject({ id, status: 'completed' });
    const url = (JSON.parse(status.body as string) as { metadata: { url: string } }).metadata.url;
    expect(url).toMatch(/\/__artifacts\/task_\w+\.mp4\?expires=\d+&sig=[0-9a-f]{32}$/);
    const video = service.handle({ ...request, method: 'GET', path: `/v1/videos/${id}/content` });
    expect(video.status).toBe(200);
    const bytes = video.body as Uint8Array;
    expect(new TextDecoder().decode(bytes.subarray(4, 8))).toBe('ftyp');
  });

  it('serves a learned profile passed as an object (a page reads no file)', async () => {
    const { text } = await bundleForBrowser('mocks/core/service/service.ts', 'iife');
    const context = browserGlobals();
    runInNewContext(text, context);
    const { createMockService } = context['core'] as typeof CoreService;
    // The observed profile with task IDs of another form: the page's mock re-encodes its own.
    const profile = { ...OBSERVED, name: 'staging', taskId: { form: 'vtsk-{alnum:32}' } } as never;
    const service = createMockService({ clock: { mode: 'manual' }, profile });
    const headers = { authorization: 'Bearer sk-mock-alice', 'content-type': 'application/json' };
    const request = { query: '', headers, origin: 'http://page.test' };
    const body = new TextEncoder().encode(
      JSON.stringify({ model: 'video-pro-v1', prompt: 'kite' }),
    );
    const submitted = service.handle({ ...request, method: 'POST', path: '/v1/videos', body });
    const { id } = JSON.parse(submitted.body as string) as { id: string };
    expect(id).toMatch(/^vtsk-[0-9A-Za-z]{32}$/);
    expect(service.profile).toBe('staging');
    const missing = service.handle({ ...request, method: 'GET', path: `/v1/videos/${id}x` });
    expect(JSON.parse(missing.body as string)).toMatchObject({
      code: 'task_not_exist',
      data: null,
    });
    expect(missing.headers['x-oneapi-request-id']).toMatch(/^[0-9A-Za-z]{31}$/);
  });
});

import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMockServer } from '../../mocks/index.ts';
import { serviceSpec } from '../../src/spec/load-spec.ts';
import { SERVICE_SPEC_PATH } from '../../src/spec/load-spec-file.ts';

/** The static side of /docs, over plain HTTP (the browser test is docs-page.e2e.test.ts). */
const LIBRARY = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

let server: RunningMockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0, clock: { mode: 'manual' }, seed: 1 });
});
afterAll(() => server.close());

interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** node:http with the path sent exactly as written (no `..` folding) and no API key. */
function get(
  path: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: server.host,
        port: server.port,
        path,
        method: options.method ?? 'GET',
        headers: options.headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('/docs static serving', () => {
  it('serves the page without an API key, with a same-origin-only CSP', async () => {
    for (const path of ['/docs', '/docs/', '/docs?x=1']) {
      const page = await get(path);
      expect(page.status, path).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['content-security-policy']).toContain("default-src 'none'");
      expect(page.headers['content-security-policy']).toContain("connect-src 'self'");
      expect(page.body.toString()).toContain('/docs/swagger-ui-bundle.js');
      expect(page.body.toString()).not.toMatch(/(src|href)="(https?:)?\/\//);
    }
  });

  it('serves the library files from node_modules with their content types', async () => {
    const files = {
      'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
      'swagger-ui.css': 'text/css; charset=utf-8',
      'favicon-32x32.png': 'image/png',
      'favicon-16x16.png': 'image/png',
    };
    for (const [name, type] of Object.entries(files)) {
      const answer = await get(`/docs/${name}`);
      expect(answer.status, name).toBe(200);
      expect(answer.headers['content-type']).toBe(type);
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.body.equals(readFileSync(join(LIBRARY, name))), name).toBe(true);
    }
    expect((await get('/docs/init.js')).headers['content-type']).toBe(
      'text/javascript; charset=utf-8',
    );
    expect((await get('/docs/docs.css')).headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('answers HEAD with the GET length and no body', async () => {
    const head = await get('/docs/swagger-ui.css', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(
      String(readFileSync(join(LIBRARY, 'swagger-ui.css')).byteLength),
    );
    expect(head.body.byteLength).toBe(0);
  });

  it('serves the dereferenced spec with servers pointing at the origin the client used', async () => {
    const spec = JSON.parse((await get('/docs/openapi.json')).body.toString()) as {
      servers: { url: string }[];
      paths: unknown;
    };
    expect(spec.servers.map((s) => s.url)).toEqual([server.url]);
    expect(spec.paths).toEqual(serviceSpec.paths);
    const viaLocalhost = JSON.parse(
      (
        await get('/docs/openapi.json', { headers: { host: `localhost:${server.port}` } })
      ).body.toString(),
    ) as { servers: { url: string }[] };
    expect(viaLocalhost.servers.map((s) => s.url)).toEqual([`http://localhost:${server.port}`]);
    const yaml = await get('/docs/openapi.yaml');
    expect(yaml.headers['content-type']).toBe('application/yaml; charset=utf-8');
    expect(yaml.body.toString()).toBe(readFileSync(SERVICE_SPEC_PATH, 'utf8'));
  });

  it('answers a JSON 404 for anything else under /docs, traversal included', async () => {
    const paths = [
      '/docs/../package.json',
      '/docs/%2e%2e/package.json',
      '/docs/..%2fpackage.json',
      '/docs//etc/passwd',
      '/docs/x/../init.js',
      '/docs/index.html',
      '/docs/swagger-ui-bundle.js.map',
      '/docs/package.json',
      '/docs/constructor',
      '/docs/__proto__',
      '/docs/hasOwnProperty',
      '/docs/nope',
    ];
    for (const path of paths) {
      const answer = await get(path);
      expect(answer.status, path).toBe(404);
      expect(answer.headers['content-type'], path).toBe('application/json; charset=utf-8');
      expect(JSON.parse(answer.body.toString()), path).toMatchObject({
        error: { code: 'not_found' },
      });
    }
  });

  it('refuses other methods with 405 and leaves the service routes as they were', async () => {
    const post = await get('/docs', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers['allow']).toBe('GET, HEAD');
    expect((await get('/v1/models')).status).toBe(401);
    expect((await get('/docsx')).status).toBe(404);
    expect(
      (await get('/v1/models', { headers: { authorization: 'Bearer sk-mock-alice' } })).status,
    ).toBe(200);
  });

  it('pre-fills only built-in keys: keys from a config file never appear on the page', async () => {
    const custom = await startMockServer({
      port: 0,
      tokens: [{ key: 'sk-team-secret-1234', user: 'team', group: 'default' }],
      replaceBuiltInTokens: true,
    });
    try {
      const html = await (await fetch(`${custom.url}/docs`)).text();
      expect(html).not.toContain('sk-team-secret-1234');
      expect(html).toContain('"key":null');
      expect(html).toContain('Authorize');
    } finally {
      await custom.close();
    }
  });
});

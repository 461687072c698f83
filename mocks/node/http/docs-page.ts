import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serviceSpec } from '../../../src/spec/load-spec.ts';
import { SERVICE_SPEC_PATH } from '../../../src/spec/load-spec-file.ts';
import { JSON_TYPE, type CoreResponse } from '../../core/http/http-types.ts';
import { hostErrorResponse } from '../../core/http/errors.ts';
import { BUILT_IN_TOKENS, type MockToken } from '../../core/keys/tokens.ts';
import { DOCS_CSS, INIT_JS, PAGE_CSP } from './docs-assets.ts';

/**
 * The API reference page at `/docs` (node:http host only): Swagger UI, served from `node_modules`
 * (no CDN: the page fetches nothing outside the mock), rendering `spec/openapi.yaml` with `servers`
 * pointed at the mock itself and a built-in key pre-filled, so "Try it out" works at once.
 *
 * Only a fixed list of files is served; everything else under `/docs` is a JSON 404. The page needs no
 * API key: it is for people.
 */

/** `/docs`, `/docs/…` or `/docs?…` (the raw request target). Cheap; the host asks only when `url[1]` is `d`. */
export function isDocsPath(url: string): boolean {
  return url.startsWith('/docs') && (url.length === 5 || url[5] === '/' || url[5] === '?');
}

/** The built-in key "Try it out" starts with. */
export const DOCS_DEFAULT_KEY = 'sk-mock-alice';

const HTML_TYPE = 'text/html; charset=utf-8';
const JS_TYPE = 'text/javascript; charset=utf-8';
const CSS_TYPE = 'text/css; charset=utf-8';
const PNG_TYPE = 'image/png';
const YAML_TYPE = 'application/yaml; charset=utf-8';

/** Files of `swagger-ui-dist` served under `/docs/`: this list and nothing else. */
const LIBRARY_FILES: Readonly<Record<string, string>> = {
  'swagger-ui.css': CSS_TYPE,
  'swagger-ui-bundle.js': JS_TYPE,
  'favicon-16x16.png': PNG_TYPE,
  'favicon-32x32.png': PNG_TYPE,
};

interface DocsFile {
  readonly type: string;
  readonly body: string | Uint8Array;
  readonly cache: string;
  readonly csp?: string | undefined;
}

/**
 * The built package carries these files in dist/vendor/swagger-ui/ (scripts/build.ts copies them, with
 * Swagger UI's licence), so installing videotask installs no swagger-ui-dist; a checkout reads them
 * from the swagger-ui-dist devDependency.
 */
function swaggerUiDirectory(): string {
  const vendored = fileURLToPath(new URL('../../../vendor/swagger-ui/', import.meta.url));
  if (existsSync(vendored)) return vendored;
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

/**
 * The page's files one server has read, kept by that server (`startMockServer` makes one), never by
 * the module: each is read on first use, so a mock nobody opens the page of never loads the library.
 */
export class DocsFiles {
  #libraryDirectory: string | undefined;
  readonly #library = new Map<string, Uint8Array>();
  #specYaml: string | undefined;
  #specJson: { origin: string; body: string } | undefined;

  /** A file of Swagger UI's, read on first use and kept. */
  library(name: string): Uint8Array {
    let bytes = this.#library.get(name);
    if (bytes === undefined) {
      this.#libraryDirectory ??= swaggerUiDirectory();
      bytes = new Uint8Array(readFileSync(join(this.#libraryDirectory, name)));
      this.#library.set(name, bytes);
    }
    return bytes;
  }

  /** The dereferenced spec, its `servers` replaced by the origin the browser used, so "Try it out" hits this mock. */
  specJson(origin: string): string {
    if (this.#specJson?.origin !== origin) {
      const servers = [{ url: origin, description: 'this mock (videotask mock)' }];
      this.#specJson = { origin, body: JSON.stringify({ ...serviceSpec, servers }) };
    }
    return this.#specJson.body;
  }

  /** spec/openapi.yaml, the source. */
  specYaml(): string {
    this.#specYaml ??= readFileSync(SERVICE_SPEC_PATH, 'utf8');
    return this.#specYaml;
  }
}

/** The name of the spec's bearer scheme (`bearerAuth`), which the page pre-authorizes. */
function bearerSchemeName(): string | undefined {
  const schemes =
    (
      serviceSpec as {
        components?: { securitySchemes?: Record<string, { type?: string; scheme?: string }> };
      }
    ).components?.securitySchemes ?? {};
  return Object.entries(schemes).find(
    ([, s]) => s.type === 'http' && s.scheme?.toLowerCase() === 'bearer',
  )?.[0];
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Built-in keys this mock still accepts (keys from `--config` are never shown: they may be real-looking secrets). */
function builtInKeys(tokens: readonly MockToken[]): MockToken[] {
  const active = new Set(tokens.map((t) => t.key));
  return BUILT_IN_TOKENS.filter((t) => active.has(t.key));
}

function page(origin: string, tokens: readonly MockToken[]): string {
  const keys = builtInKeys(tokens);
  const preauthorize = keys.some((t) => t.key === DOCS_DEFAULT_KEY)
    ? DOCS_DEFAULT_KEY
    : keys[0]?.key;
  const config = {
    spec: '/docs/openapi.json',
    scheme: bearerSchemeName(),
    key: preauthorize ?? null,
  };
  const cells = (t: (typeof keys)[number]) => [
    `<code>${escapeHtml(t.key)}</code>`,
    escapeHtml(t.user),
    escapeHtml(t.group),
    escapeHtml(t.description ?? ''),
  ];
  const rows = keys.map((t) => `<tr><td>${cells(t).join('</td><td>')}</td></tr>`).join('');
  const keyText =
    preauthorize === undefined
      ? 'This mock was started without its built-in keys: press <b>Authorize</b> and enter one of your configured keys.'
      : `<b>Try it out</b> sends real requests to this mock ` +
        `(<code>${escapeHtml(origin)}</code>) with <code>Authorization: Bearer ` +
        `${escapeHtml(preauthorize)}</code> already filled in; press ` +
        `<b>Authorize</b> to switch to another key.`;
  const banner =
    '<b>videotask mock</b> · API reference rendered from <code>spec/openapi.yaml</code> ' +
    '(<a href="/docs/openapi.json">openapi.json</a>, dereferenced · ' +
    '<a href="/docs/openapi.yaml">openapi.yaml</a>, the source).';
  const head = '<thead><tr><th>key</th><th>user</th><th>group</th><th>notes</th></tr></thead>';
  const keyTable =
    keys.length === 0
      ? ''
      : '<details open><summary>Built-in API keys</summary>' +
        `<table>${head}<tbody>${rows}</tbody></table></details>`;
  const title = escapeHtml(`${serviceSpec.info.title} — API reference (videotask mock)`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" type="image/png" sizes="32x32" href="/docs/favicon-32x32.png">
<link rel="icon" type="image/png" sizes="16x16" href="/docs/favicon-16x16.png">
<link rel="stylesheet" href="/docs/swagger-ui.css">
<link rel="stylesheet" href="/docs/docs.css">
</head>
<body>
<header class="mock-banner" id="mock-banner">
<p>${banner} ${keyText}</p>
${keyTable}
</header>
<div id="swagger-ui"></div>
<script type="application/json" id="docs-config">${JSON.stringify(config).replace(/</g, '\\u003c')}</script>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;
}

/** A file of the page, or undefined. `name` is the path after `/docs/` ('' for the page itself). */
function docsFile(
  name: string,
  origin: string,
  tokens: readonly MockToken[],
  files: DocsFiles,
): DocsFile | undefined {
  switch (name) {
    case '':
      return { type: HTML_TYPE, body: page(origin, tokens), cache: 'no-cache', csp: PAGE_CSP };
    case 'init.js':
      return { type: JS_TYPE, body: INIT_JS, cache: 'no-cache' };
    case 'docs.css':
      return { type: CSS_TYPE, body: DOCS_CSS, cache: 'no-cache' };
    case 'openapi.json':
      return { type: JSON_TYPE, body: files.specJson(origin), cache: 'no-cache' };
    case 'openapi.yaml':
      return { type: YAML_TYPE, body: files.specYaml(), cache: 'no-cache' };
  }
  const type = Object.hasOwn(LIBRARY_FILES, name) ? LIBRARY_FILES[name] : undefined;
  return type === undefined
    ? undefined
    : { type, body: files.library(name), cache: 'public, max-age=3600' };
}

function docsError(
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): CoreResponse {
  return hostErrorResponse(status, { code, message }, { 'cache-control': 'no-store', ...headers });
}

/**
 * Answers a request for which `isDocsPath(url)` holds. `origin` is how the browser addressed the mock;
 * `tokens` are the keys the mock accepts (only built-in ones are shown); `files` the server's.
 */
export function docsResponse(
  method: string,
  url: string,
  origin: string,
  tokens: readonly MockToken[],
  files: DocsFiles,
): CoreResponse {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const name = path === '/docs' ? '' : path.slice('/docs/'.length);
  let file: DocsFile | undefined;
  try {
    file = docsFile(name, origin, tokens, files);
  } catch (error) {
    return docsError(
      500,
      'docs_unavailable',
      `The API reference page could not be served: ${(error as Error).message}`,
    );
  }
  if (file === undefined) return docsError(404, 'not_found', `No such file under /docs: ${path}`);
  if (method !== 'GET' && method !== 'HEAD')
    return docsError(
      405,
      'method_not_allowed',
      `${method} is not allowed on ${path}: use GET or HEAD`,
      { allow: 'GET, HEAD' },
    );
  const length =
    typeof file.body === 'string' ? Buffer.byteLength(file.body) : file.body.byteLength;
  const headers: Record<string, string> = {
    'content-type': file.type,
    'content-length': String(length),
    'cache-control': file.cache,
    'x-content-type-options': 'nosniff',
  };
  if (file.csp !== undefined) headers['content-security-policy'] = file.csp;
  return method === 'HEAD' ? { status: 200, headers } : { status: 200, headers, body: file.body };
}

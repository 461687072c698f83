import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  sendJson,
  startHostileServer,
  type HostileServer,
} from '../contracts/support/hostile-server.ts';
import { runVideotask, type CliRun } from '../helpers/cli.ts';

// Issue 33 item 11: verify-family's Markdown record wrote what the deployment sent (an error message,
// its code, the billing header, a model's status) as it came: an image (`![x](https://tracker…)`)
// loaded when the record was viewed, a link or raw HTML rendered, a `|` split a table row and a line
// break started a heading of the deployment's. Deployment text is now escaped (src/text/markdown-text.ts):
// it shows as written and renders as nothing else.
const MARKUP =
  '![pixel](https://tracker.example/p.png) <img src=x onerror=alert(1)> ' +
  '[click](javascript:alert(1)) *bold* _em_ ~~gone~~ &lt; | a new cell';
const MESSAGE = `${MARKUP}\n## Injected heading\n<!-- hidden -->`;

let server: HostileServer;
let dir: string;
let run: CliRun;

beforeAll(async () => {
  server = await startHostileServer((request, response) => {
    const url = request.url ?? '';
    if (url === '/v1/models')
      return sendJson(response, 200, { object: 'list', data: [{ id: 'alt-video-v2' }] });
    if (request.method === 'POST') {
      response.setHeader('x-new-api-other-ratios', MARKUP);
      return sendJson(response, 200, {
        id: 'task_md',
        task_id: 'task_md',
        object: 'video',
        model: 'alt-video-v2',
        status: 'queued',
        progress: 0,
        created_at: 1_790_000_000,
      });
    }
    sendJson(response, 200, {
      id: 'task_md',
      object: 'video',
      model: 'alt-video-v2',
      status: 'failed',
      progress: 100,
      created_at: 1_790_000_000,
      error: { code: 'Bad`Code<b>', message: MESSAGE },
    });
  });
  dir = mkdtempSync(join(tmpdir(), 'videotask-record-md-'));
  const env = {
    ...process.env,
    VIDEOTASK_BASE_URL: server.url,
    VIDEOTASK_API_KEY: 'sk-team-secret-0123456789',
  };
  const args = ['verify-family', '--model', 'alt-video-v2', '--report-dir', dir];
  run = await runVideotask([...args, '--poll-initial', '0.05', '--poll-timeout', '20'], {
    env,
    timeoutMs: 60_000,
  });
}, 90_000);
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function markdown(): string {
  const name = readdirSync(dir).find((file) => file.endsWith('.md'))!;
  return readFileSync(join(dir, name), 'utf8');
}

/** Whether `raw` occurs in `md` other than right after a backslash (which makes its first character text). */
const unescaped = (md: string, raw: string) =>
  new RegExp(`(?<!\\\\)${raw.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`).test(md);

/** The `|` that separate cells (not those escaped as `\|`). */
const cellBars = (line: string) => line.replace(/\\\\/g, '').replace(/\\\|/g, '').split('|').length;

it('records what the deployment sent without rendering it: no image, link, HTML or heading of its own', () => {
  expect(run.code).toBe(1);
  const md = markdown();
  // The deployment's text is there, each character as written …
  expect(md).toContain(
    '\\!\\[pixel\\](https\\://tracker.example/p.png) &lt;img src=x onerror=alert(1)&gt;',
  );
  expect(md).toContain(
    '\\[click\\](javascript:alert(1)) \\*bold\\* \\_em\\_ \\~\\~gone\\~\\~ &amp;lt; \\| a new cell',
  );
  // … and none of it as Markdown or HTML.
  for (const raw of ['![pixel]', '<img', '[click](', '<!--', '*bold*', '_em_', '~~gone'])
    expect(unescaped(md, raw), raw).toBe(false);
  expect(md).not.toMatch(/^## Injected/m);
  // A code shows in a code span, fenced past its own backticks: literal, `<b>` included.
  expect(md).toContain('`` Bad`Code<b> ``');
});

it('keeps every table row to its header cells, whatever a cell holds', () => {
  const lines = markdown().split('\n');
  const tables = lines.filter((line) => line.startsWith('|'));
  expect(tables.length).toBeGreaterThan(4);
  let header = 0;
  for (const [i, line] of lines.entries()) {
    if (!line.startsWith('|')) {
      header = 0;
      continue;
    }
    if (header === 0) header = cellBars(line);
    expect(cellBars(line), `line ${i + 1}: ${line}`).toBe(header);
  }
});

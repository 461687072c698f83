import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Har } from '../../contracts/index.ts';
import { curlOf } from '../../contracts/reproduction.ts';
import {
  startMockServer,
  type RunningMockServer as MockServer,
} from '../../mocks/node/http/server.ts';
import { runVideotask } from '../helpers/cli.ts';
import { prefixProxy } from '../helpers/prefix-proxy.ts';

// Issue 31, first example and item 5: `contract --base-url http://127.0.0.1:4010/api` checked
// `http://127.0.0.1:4010/v1/…` (the recorder joined `new URL('/v1/…', base)`, which drops the base's
// path), passed 51 checks and exited 0 while every request under /api answered 404; the HAR showed the
// requests at the root. The suite now asks under the prefix, with or without a trailing slash, and a
// base URL under which nothing answers like the service is exit 2 saying so, never a PASS.

const FAST = ['--poll-initial', '0.05', '--poll-max', '0.2', '--tier', 'lifecycle'];
const KEYS = ['--api-key', 'sk-mock-alice', '--other-api-key', 'sk-mock-bob'];

async function tasksOf(mock: MockServer): Promise<number> {
  const listed = (await (await fetch(`${mock.url}/__mock/tasks`)).json()) as { tasks: unknown[] };
  return listed.tasks.length;
}

describe('a base URL with a path prefix', () => {
  let mock: MockServer;
  let proxy: Awaited<ReturnType<typeof prefixProxy>>;
  let dir: string;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0, speed: 100 });
    proxy = await prefixProxy(mock.url, '/api');
    dir = mkdtempSync(join(tmpdir(), 'videotask-prefix-'));
  });
  afterAll(async () => {
    await proxy.close();
    await mock.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(['/api', '/api/'])(
    'is kept whole (%s): every request, curl line and HAR entry is under it',
    async (prefix) => {
      proxy.seen.length = 0;
      const har = join(dir, `run${prefix.length}.har`);
      const run = await runVideotask(
        ['contract', '--base-url', `${proxy.url}${prefix}`, ...KEYS, ...FAST, '--har', har],
        { timeoutMs: 120_000 },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(proxy.seen.length).toBeGreaterThan(20);
      expect(proxy.seen.filter((p) => !p.startsWith('/api/v1/'))).toEqual([]);
      const entries = (JSON.parse(readFileSync(har, 'utf8')) as Har).log.entries;
      expect(entries.length).toBe(proxy.seen.length);
      for (const entry of entries) expect(entry.request.url).toMatch(`${proxy.url}/api/v1/`);
    },
  );

  it('is kept in a curl reproduction', () => {
    const exchange = {
      method: 'GET',
      path: '/v1/models',
      as: 'primary',
      sent: { headers: {} },
    } as const;
    for (const base of ['https://gw.example.com/api', 'https://gw.example.com/api/'])
      expect(curlOf(exchange, base)).toContain(" 'https://gw.example.com/api/v1/models' ");
  });

  it('under which nothing answers like the service is exit 2 naming the prefix, never a PASS', async () => {
    const before = await tasksOf(mock);
    const run = await runVideotask(
      ['contract', '--base-url', `${mock.url}/api`, ...KEYS, ...FAST],
      {
        timeoutMs: 60_000,
      },
    );
    expect(run.code, run.stdout).toBe(2);
    expect(run.stderr).toMatch(
      new RegExp(
        `nothing at ${mock.url}/api answers like the video task service: ` +
          `GET ${mock.url}/api/v1/models answered HTTP 404`,
      ),
    );
    expect(run.stderr).toMatch(/Check the path prefix of the base URL/);
    expect(run.stdout).not.toMatch(/PASS|following the documented behaviour/);
    expect(await tasksOf(mock)).toBe(before);
  });

  it('is kept by learn: its requests are under it, the profile named with it and keeping it', async () => {
    proxy.seen.length = 0;
    const out = join(dir, 'prefixed.profile.json');
    const run = await runVideotask(
      ['learn', '--base-url', `${proxy.url}/api`, ...KEYS, ...FAST, '--out', out],
      { timeoutMs: 120_000 },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(proxy.seen.filter((p) => !p.startsWith('/api/v1/'))).toEqual([]);
    const profile = JSON.parse(readFileSync(out, 'utf8')) as { name: string; target: unknown };
    expect(profile.name).toBe(`${new URL(proxy.url).host}/api`);
    expect(profile.target).toMatchObject({ host: new URL(proxy.url).host, basePath: '/api' });
  });

  // The client commands and the other commands running the suite say it too (issue 31 item 5).
  it.each([
    ['status', ['status', 'task_missing']],
    ['monitor', ['monitor', '--once']],
    ['verify-family', ['verify-family', '--dry-run']],
    ['learn', ['learn', '--out', 'never.profile.json', ...FAST]],
    ['drift', ['drift', '--against-api-key', 'sk-mock-alice', ...FAST]],
  ])(
    '%s: nothing answering like the service under it is exit 2 naming the prefix',
    async (_n, args) => {
      const base = `${mock.url}/api`;
      const against = args[0] === 'drift' ? ['--against', mock.url] : [];
      const run = await runVideotask(
        [...args, '--base-url', base, '--api-key', 'sk-mock-alice', ...against],
        {
          timeoutMs: 60_000,
          cwd: dir,
        },
      );
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(2);
      expect(`${run.stdout}\n${run.stderr}`).toMatch(
        new RegExp(`nothing at ${base} answers like the video task service: .*path prefix`, 's'),
      );
    },
  );
});

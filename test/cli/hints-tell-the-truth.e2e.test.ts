import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../cli/commands.ts';
import { verifyFamilyCommand } from '../../cli/commands/verify-family.ts';
import { localMockCommand } from '../../cli/explain.ts';
import { monitorRound } from '../../cli/monitor-round.ts';
import { UsageError } from '../../cli/options.ts';
import { createMockService } from '../../mocks/index.ts';
import { renderClientSummary } from '../../mocks/core/client-verdicts/report-text.ts';
import { startMockServer, type RunningMockServer } from '../../mocks/node/http/server.ts';
import { NotFoundError, VideoTaskClient } from '../../src/client/index.ts';
import { coreWire } from '../client-verdicts/wire.ts';

// Issue 35 item 3: hints that misled a new user. In a project that installed the package the
// connection hint said "`npm start` runs the local mock" (only this checkout has that script); a 404
// for a route that does not exist said "this task is not yours or does not exist"; `monitor` printed
// `OK auth … answered HTTP 404`; `verify-family` without a key suggested sk-mock-alice, which cannot use
// the second family; the client coverage masked the mock's published keys (`sk-…ob`) and told bob to
// query a task of his own key. Each hint's claim is checked here against what it claims.

let mock: RunningMockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, familyBound: true });
});
afterAll(() => mock.close());

const client = (baseUrl: string, apiKey = 'sk-mock-alice') =>
  new VideoTaskClient({ baseUrl, apiKey });
const KITE = { model: 'video-pro-v1', prompt: 'a red kite' };

async function refusal(call: Promise<unknown>): Promise<NotFoundError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(NotFoundError);
  return error as NotFoundError;
}

describe('the hint that starts the local mock', () => {
  const root = '/home/me/videotask';

  it('says `npx videotask mock` in a project that installed the package', () => {
    const installed = { fromSources: false, root: '/p/node_modules/videotask', cwd: '/p' };
    expect(localMockCommand(installed)).toBe('npx videotask mock');
    expect(localMockCommand({ fromSources: true, root, cwd: '/elsewhere' })).toBe(
      'npx videotask mock',
    );
  });

  it('says `npm start` only inside this checkout, whose start script runs the mock', () => {
    expect(localMockCommand({ fromSources: true, root, cwd: `${root}/docs` })).toBe('npm start');
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
      bin: Record<string, string>;
      scripts: Record<string, string>;
    };
    expect(pkg.scripts['start']).toMatch(/\bvideotask(\.js)? mock\b/);
    // What `npx videotask mock` runs: the package's bin, and its mock command.
    expect(Object.keys(pkg.bin)).toEqual(['videotask']);
    expect(commands.map((c) => c.name)).toContain('mock');
  });
});

describe("a 404's hint", () => {
  it('for a path the service has no route for says to check the base URL', async () => {
    const task = await client(mock.url).submit(KITE);
    const error = await refusal(client(`${mock.url}/gateway`).getVideo(task.id));
    expect(error.hint).toMatch(/^the service does not serve this path: check the base URL/);
    // The claim: at the right base URL the same query of the same task answers.
    expect((await client(mock.url).getVideo(task.id)).id).toBe(task.id);
  });

  it("for another user's task says it is not yours", async () => {
    const bobs = await client(mock.url, 'sk-mock-bob').submit(KITE);
    const error = await refusal(client(mock.url).getVideo(bobs.id));
    expect(error.hint).toMatch(/^this task is not yours or does not exist/);
    expect((await client(mock.url, 'sk-mock-bob').getVideo(bobs.id)).id).toBe(bobs.id);
  });
});

describe('monitor at a base URL where nothing serves the catalog', () => {
  it('says nothing of the key, exits 2 and names the base URL', async () => {
    const wrong = await monitorRound(client(`${mock.url}/gateway`), {
      expectModels: [],
      secrets: ['sk-mock-alice'],
    });
    expect(wrong.status).toBe(2);
    expect(wrong.lines.filter((l) => l.ok)).toEqual([]);
    expect(wrong.lines[0]).toMatchObject({ check: 'reach' });
    expect(wrong.lines[0]!.detail).toMatch(
      /answered HTTP 404 .*Check the path prefix of the base URL/s,
    );
    // The claim: the key is good, so at the right base URL it is OK.
    const right = await monitorRound(client(mock.url), { expectModels: [], secrets: [] });
    expect(right.lines[0]).toMatchObject({ ok: true, check: 'auth' });
  });
});

describe('verify-family without a key', () => {
  it("names the mock's key that can use the second family", async () => {
    const saved = process.env['VIDEOTASK_API_KEY'];
    delete process.env['VIDEOTASK_API_KEY'];
    try {
      const run = verifyFamilyCommand.run(['--base-url', mock.url, '--dry-run']);
      await expect(run).rejects.toThrow(UsageError);
      await expect(run).rejects.toThrow(/the local mock accepts sk-mock-vip\)$/);
    } finally {
      if (saved !== undefined) process.env['VIDEOTASK_API_KEY'] = saved;
    }
    // The claim: sk-mock-vip submits to the second family on the mock; sk-mock-alice cannot.
    const family = { model: 'alt-video-v2', prompt: 'a red kite' };
    expect((await client(mock.url, 'sk-mock-vip').submit(family)).id).toMatch(/^task_/);
    await expect(client(mock.url).submit(family)).rejects.toThrow();
  });
});

describe("the client coverage's hint for a task not found", () => {
  it('names the published keys as they are, and works for bob as for alice', async () => {
    const service = createMockService({ clock: { mode: 'manual' }, seed: 'hint' });
    const wire = coreWire(service);
    const submit = (key: string) => wire.call('POST', '/v1/video/generations', { key, body: KITE });
    const idOf = (answer: { body: unknown }) => (answer.body as { id: string }).id;
    // Bob calls too, so his key is a caller's key: it is not masked all the same.
    await submit('sk-mock-bob');
    const summary = renderClientSummary(service.clientReport());
    const hint = /task that is missing or another user’s \(§5\): (.*)$/m.exec(summary)?.[1];
    expect(hint).toContain('submit with `sk-mock-bob` (with `sk-mock-limited` if your client');
    expect(summary).not.toContain('sk-…ob');
    // Following it: alice queries bob's task; bob queries limited's task. Both meet the situation.
    const bobs = idOf(await submit('sk-mock-bob'));
    const limiteds = idOf(
      await wire.call('POST', '/v1/video/generations', {
        key: 'sk-mock-limited',
        body: { ...KITE, model: 'video-lite-v1' },
      }),
    );
    await wire.call('GET', `/v1/videos/${bobs}`, { key: 'sk-mock-alice' });
    await wire.call('GET', `/v1/videos/${limiteds}`, { key: 'sk-mock-bob' });
    const { callers } = service.clientReport().coverage;
    for (const user of ['alice', 'bob'])
      expect(callers.find((c) => c.user === user)!.met).toContain('task-not-found');
  });
});

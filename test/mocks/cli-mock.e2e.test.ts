import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  exitCode,
  killMockProcesses,
  LISTENING,
  listening,
  spawnMock,
} from '../helpers/mock-process.ts';

/** The banner's last line: what a test reads of it is complete once this is printed. */
const BANNER_END = /control API: .*\n/;

const TEAM_KEY = 'sk-team-1234567890abcd';
const dir = mkdtempSync(join(tmpdir(), 'videotask-cli-mock-'));

async function submit(base: string, key: string): Promise<Response> {
  return fetch(`${base}/v1/video/generations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'video-lite-v1', prompt: 'a red kite' }),
  });
}

afterEach(killMockProcesses);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('videotask mock', () => {
  it('serves a task from submission to download at --speed 100, then exits 0 on SIGTERM', async () => {
    const mock = spawnMock('--port', '0', '--seed', '5', '--speed', '100');
    const base = await listening(mock, BANNER_END);
    for (const key of [
      'sk-mock-alice',
      'sk-mock-bob',
      'sk-mock-vip',
      'sk-mock-limited',
      'sk-mock-broke',
    ])
      expect(mock.stdout()).toContain(key);
    expect(mock.stdout()).toMatch(/seed 5/);

    const submitted = await submit(base, 'sk-mock-alice');
    expect(submitted.status).toBe(200);
    const { id } = (await submitted.json()) as { id: string };

    let status = '';
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      const task = (await (
        await fetch(`${base}/v1/videos/${id}`, {
          headers: { authorization: 'Bearer sk-mock-alice' },
        })
      ).json()) as { status: string };
      status = task.status;
      if (status === 'completed' || status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(status).toBe('completed');

    const content = await fetch(`${base}/v1/videos/${id}/content`, {
      headers: { authorization: 'Bearer sk-mock-alice' },
    });
    expect(content.status).toBe(200);
    expect(content.headers.get('content-type')).toBe('video/mp4');
    const bytes = new Uint8Array(await content.arrayBuffer());
    expect(new TextDecoder().decode(bytes.subarray(4, 8))).toBe('ftyp');
    expect(bytes.byteLength).toBe(Number(content.headers.get('content-length')));

    mock.child.kill('SIGTERM');
    expect(await exitCode(mock, 5_000)).toBe(0);
  });

  // The process once: exit 2, the flag named, nothing listening. Every other refused flag value is
  // checked in-process (test/mocks/cli-mock-flags.test.ts).
  it('exits 2 on a bad flag value naming the flag, and listens on nothing', async () => {
    const mock = spawnMock('--port', '0', '--speed', 'abc');
    expect(await exitCode(mock, 10_000)).toBe(2);
    expect(mock.stderr()).toMatch(/--speed must be a number, got "abc"/);
    expect(mock.stderr()).toMatch(/videotask mock --help/);
    expect(mock.stdout()).not.toMatch(LISTENING);
  });

  it('accepts the keys of a --config file and prints them masked', async () => {
    const config = join(dir, 'tokens.json');
    writeFileSync(
      config,
      JSON.stringify({ tokens: [{ key: TEAM_KEY, user: 'carol', group: 'default' }] }),
    );
    const mock = spawnMock('--port', '0', '--seed', '5', '--config', config);
    const base = await listening(mock, BANNER_END);
    expect(mock.stdout()).toMatch(/sk-…abcd\s+user carol, group default/);
    expect(mock.stdout() + mock.stderr()).not.toContain(TEAM_KEY);
    expect(mock.stdout()).toContain('sk-mock-alice');

    const submitted = await submit(base, TEAM_KEY);
    expect(submitted.status).toBe(200);
    const { id } = (await submitted.json()) as { id: string };
    const asCarol = await fetch(`${base}/v1/videos/${id}`, {
      headers: { authorization: `Bearer ${TEAM_KEY}` },
    });
    expect(asCarol.status).toBe(200);
    const asAlice = await fetch(`${base}/v1/videos/${id}`, {
      headers: { authorization: 'Bearer sk-mock-alice' },
    });
    expect(asAlice.status).toBe(404);
  });

  it('exits 2 naming the file when the --config file is not JSON', async () => {
    const config = join(dir, 'broken.json');
    writeFileSync(config, '{"tokens": [');
    const mock = spawnMock('--port', '0', '--config', config);
    expect(await exitCode(mock, 10_000)).toBe(2);
    expect(mock.stderr()).toContain(`--config ${config}`);
  });

  it('exits 2 naming the file when the --config file does not exist', async () => {
    const config = join(dir, 'missing.json');
    const mock = spawnMock('--port', '0', '--config', config);
    expect(await exitCode(mock, 10_000)).toBe(2);
    expect(mock.stderr()).toContain(`--config ${config}: no such file`);
  });

  it('exits 1 saying the port is in use when another instance holds it', async () => {
    const first = spawnMock('--port', '0');
    const port = new URL(await listening(first, BANNER_END)).port;
    const second = spawnMock('--port', port);
    expect(await exitCode(second, 10_000)).toBe(1);
    expect(second.stderr()).toMatch(new RegExp(`port ${port} is in use`));
    // The first one is unaffected.
    expect(
      (
        await fetch(`http://127.0.0.1:${port}/v1/models`, {
          headers: { authorization: 'Bearer sk-mock-alice' },
        })
      ).status,
    ).toBe(200);
  });
});

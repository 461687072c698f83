import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { stopVideotask } from '../helpers/cli.ts';
import { rawServer, writeEndlessly, type RawServer } from '../helpers/raw-server.ts';

// Issue 14 item 9: Ctrl-C or SIGTERM during `videotask download` killed the process and left its
// temporary `.v.mp4.<hex>.part` behind (1.17 GB of it against an endless body).
let server: RawServer;
let dir: string;

beforeAll(async () => {
  server = await rawServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'video/mp4' });
    writeEndlessly(res, new Uint8Array(64 * 1024));
  });
  dir = mkdtempSync(join(tmpdir(), 'videotask-download-signal-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

it.each([
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const)('removes the partial file on %s and exits %i', async (signal, code) => {
  const folder = mkdtempSync(join(dir, `${signal}-`));
  // Stopped mid-download: the partial file exists and has bytes (the progress line says how many).
  let during: string[] = [];
  const { code: exit, stderr } = await stopVideotask(
    ['download', 'task_x', '-o', join(folder, 'v.mp4')],
    {
      env: { ...process.env, VIDEOTASK_BASE_URL: server.url, VIDEOTASK_API_KEY: 'sk-mock-alice' },
      ready: (text) => {
        if (!/\d+ KiB received/.test(text)) return false;
        during = readdirSync(folder);
        return true;
      },
      signal,
    },
  );
  expect(during).toEqual([expect.stringMatching(/^\.v\.mp4\.[0-9a-f]+\.part$/)]);
  expect(exit).toBe(code);
  expect(readdirSync(folder)).toEqual([]);
  expect(stderr).toMatch(new RegExp(`stopped by ${signal}; nothing was written`));
});

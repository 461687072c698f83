import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMockServer, type RunningMockServer } from '../../mocks/index.ts';
import { videotaskCli } from '../helpers/built-cli.ts';

/**
 * A `videotask` command whose reader went away (`videotask monitor … | head -1`, `videotask mock | head -1`
 * in a script that waits for the readiness line) crashed at its next write with an EPIPE stack trace and
 * exit 1. Now it stops as on SIGTERM (the commands that clean up on a signal do so): no stack trace.
 */
let server: RunningMockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0 });
});
afterAll(() => server.close());

it('stops without a stack trace when the reader of its output goes away', async () => {
  const args = ['monitor', '--base-url', server.url, '--api-key', 'sk-mock-alice'];
  const child = spawn(process.execPath, [videotaskCli(), ...args, '--interval', '0.1']);
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = once(child, 'exit') as Promise<[number | null, string | null]>;
  const [first] = (await once(child.stdout, 'data')) as [Buffer];
  expect(first.toString()).toMatch(/^OK auth /);
  child.stdout.destroy(); // like `head -1` leaving: the next write fails with EPIPE
  const [code, signal] = await exited;
  expect(stderr).not.toMatch(/EPIPE|\n\s+at /);
  expect(signal, stderr).toBeNull();
  expect([0, 130, 143], `exit ${code}: ${stderr}`).toContain(code);
});

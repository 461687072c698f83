// Issue 34 item 5: `videotask proxy`'s command line: a wrong flag or value is told in one line with
// what to do, exit 2, no stack trace, and no credential of the URL given is repeated; a port in use
// is exit 1, said so.
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVideotask } from '../helpers/cli.ts';

let busy: Server;
let busyPort = 0;

beforeAll(async () => {
  busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  busyPort = (busy.address() as { port: number }).port;
});

afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

describe.concurrent('videotask proxy on the command line', () => {
  it.each([
    [['proxy'], /give the deployment to stand in front of: --upstream/],
    [['proxy', '--upstream', 'ftp://example.com'], /must be an http:\/\/ or https:\/\/ URL/],
    [
      ['proxy', '--upstream', 'http://127.0.0.1:1', '--inject', 'meteor'],
      /--inject meteor: give NAME or NAME=RATE/,
    ],
    [
      ['proxy', '--upstream', 'http://127.0.0.1:1', '--inject', 'query-5xx=2'],
      /the rate is a number from 0 to 1/,
    ],
    [
      ['proxy', '--upstream', 'http://127.0.0.1:1', '--report-every', '5'],
      /--report-every needs --report-dir/,
    ],
  ])('%j is refused in one line, exit 2', async (args, message) => {
    const run = await runVideotask(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('never repeats the credentials of an --upstream URL', async () => {
    const run = await runVideotask([
      'proxy',
      '--upstream',
      'https://deploy:hunter2-secret@staging.example.com',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/must not carry credentials/);
    expect(run.stderr).not.toContain('hunter2');
  });

  it('says a port in use and exits 1', async () => {
    const run = await runVideotask([
      'proxy',
      '--upstream',
      'http://127.0.0.1:1',
      '--port',
      String(busyPort),
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`port ${busyPort} is in use`));
  });
});

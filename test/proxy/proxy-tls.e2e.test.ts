// Issue 34 item 1: `--upstream https://…`. The proxy's own connections to the upstream (decisions/061)
// speak TLS with the certificate checked as node checks it: an upstream the machine does not trust is
// a 502 naming why, one it trusts (here through NODE_EXTRA_CA_CERTS, as a private CA would be) is
// forwarded. The key and certificate in fixtures/ are for this test alone (self-signed, 127.0.0.1).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxy } from '../../proxy/proxy-server.ts';
import { start, stopAll } from './support/processes.ts';

const fixture = (name: string) => fileURLToPath(new URL(`fixtures/${name}`, import.meta.url));
const run = promisify(execFile);
let upstream: Server;
let upstreamUrl: string;

beforeAll(async () => {
  upstream = createServer(
    {
      key: readFileSync(fixture('upstream-key.pem')),
      cert: readFileSync(fixture('upstream-cert.pem')),
    },
    (req, res) => {
      const text = JSON.stringify({ object: 'list', path: req.url });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': text.length });
      res.end(text);
    },
  );
  await new Promise<void>((ok) => upstream.listen(0, '127.0.0.1', ok));
  upstreamUrl = `https://127.0.0.1:${(upstream.address() as { port: number }).port}/base`;
});

afterAll(() => {
  stopAll();
  upstream.close();
});

describe('an upstream over https', () => {
  it('is refused with a 502 naming why when its certificate is not trusted', async () => {
    const proxy = await startProxy({ upstream: upstreamUrl, port: 0 });
    const answer = await fetch(`${proxy.url}/v1/models`);
    expect(answer.status).toBe(502);
    const body = (await answer.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('upstream_unreachable');
    expect(body.error.message).toMatch(/SELF_SIGNED|CERT/);
    await proxy.close(100);
  });

  it('is forwarded, its base path kept, when the machine trusts its certificate', async () => {
    const trusted = await start(
      ['bin/videotask.js', 'proxy', '--port', '0', '--upstream', upstreamUrl],
      /videotask proxy listening on (http:\/\/\S+)/,
      { NODE_EXTRA_CA_CERTS: fixture('upstream-cert.pem') },
    );
    const answer = await fetch(`${trusted.url}/v1/models`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('via')).toBe('1.1 videotask-proxy');
    expect(await answer.json()).toEqual({ object: 'list', path: '/base/v1/models' });
    expect(await trusted.stop()).toBe(0);
  });

  it('holds the answer while the exchange waits for a slow client: nothing arrives while paused', async () => {
    // Over TLS, node's `onread` goes on handing over what a read decrypted after a pause: the
    // upstream's https connections keep node's 'data' events (decisions/062).
    const script = fileURLToPath(new URL('fixtures/tls-pause.ts', import.meta.url));
    const { stdout } = await run(process.execPath, ['--import', 'tsx', script], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: fixture('upstream-cert.pem') },
    });
    expect(JSON.parse(stdout)).toEqual({ bytes: 4 << 20, whilePaused: 0, outcome: 'end' });
  });
});

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ANSWER_BYTES } from '../../contracts/http-body.ts';
import { HttpRecorder } from '../../contracts/http-recorder.ts';
import { startHostileServer, type HostileServer } from '../contracts/support/hostile-server.ts';

// Issue 24 item 6: the contract runner kept every answer it read (whole JSON bodies, parsed, in the
// recorder, in the evidence of every observation and in every poll): answers padded to 1 MiB grew it to
// 2.35 GB after 63 requests. And it read a body of announced length ≤ 1 MiB in one piece: a 10 KB
// `Content-Encoding: gzip, gzip` body that decodes to 4 GiB was buffered whole (3.9 GB, 120 s). Now a
// body is read as a stream, decoded as it arrives and read no further than the client would (4 MiB),
// and the run keeps excerpts of what it saw and the fields it judges later, not whole answers.
const PADDED_RUN = fileURLToPath(new URL('../contracts/support/padded-run.ts', import.meta.url));

interface RunCost {
  readonly requests: number;
  readonly heapMb: number;
  readonly maxRssMb: number;
}

/** A contract run in a process of its own, every JSON answer padded to `size` bytes. */
function paddedRun(size: number): Promise<RunCost> {
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', PADDED_RUN, String(size)],
      { timeout: 240_000 },
      (error, stdout, stderr) =>
        error === null ? resolve(JSON.parse(stdout) as RunCost) : reject(new Error(stderr)),
    ),
  );
}

describe('a contract run against a deployment padding every JSON answer to 1 MiB', () => {
  it('holds no more than a run against the plain deployment, give or take the answers in flight', async () => {
    const plain = await paddedRun(0);
    const padded = await paddedRun(1 << 20);
    expect(padded.requests).toBe(plain.requests);
    expect(padded.requests).toBeGreaterThan(300);
    // Before: 390 MB held after 390 requests (1 MiB per answer kept), growing with every request.
    expect(padded.heapMb - plain.heapMb).toBeLessThan(64);
  }, 300_000);
});

describe('an answer that decodes to more than the runner reads', () => {
  let server: HostileServer;
  beforeAll(async () => {
    // 4,096 gzip members of 1 MiB of zeros, gzipped again: 10 KB on the wire, 4 GiB decoded.
    const member = gzipSync(Buffer.alloc(1 << 20));
    const bomb = gzipSync(Buffer.concat(Array.from({ length: 4096 }, () => member)), { level: 9 });
    server = await startHostileServer((_request, response) => {
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip, gzip',
        'content-length': bomb.byteLength,
      });
      response.end(bomb);
    });
  });
  afterAll(() => server.close());

  it('is decoded as it streams and read no further than 4 MiB', async () => {
    const recorder = new HttpRecorder({
      baseUrl: server.url,
      keys: { primary: 'sk-test-0123456789abcdef' },
      requestTimeoutMs: 60_000,
    });
    const before = process.memoryUsage().rss;
    const exchange = await recorder.send('bomb', 'GET', '/v1/models');
    expect(exchange.status).toBe(200);
    expect(exchange.bodyError).toMatch(/^longer than 4194304 bytes, the most the suite reads/);
    expect(exchange.bytes).toBeLessThan(MAX_ANSWER_BYTES + (1 << 20));
    expect(exchange.json).toBeUndefined();
    // Before: 4 GiB decoded into one buffer.
    expect(process.memoryUsage().rss - before).toBeLessThan(256 * 2 ** 20);
    // What the run keeps of it is an excerpt.
    expect(recorder.exchanges[0]!.head.byteLength).toBeLessThanOrEqual(4096);
  });
});

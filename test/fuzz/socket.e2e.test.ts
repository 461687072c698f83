import { expect, it } from 'vitest';
import { FuzzStats } from './oracle.ts';
import { fuzzSeed, fuzzSocket } from './runners.ts';

// The node:http host over TCP on 127.0.0.1, raw bytes: malformed request lines, odd, duplicate, huge and
// invalid headers, lying framing, chunked and truncated bodies, bodies over the limit, non-UTF-8 bytes,
// random methods, Expect, CONNECT. Every request has a 5 s limit; the server must answer a health check
// every 25 cases and close without a leftover connection at the end.
const RUNS = 600;

it(
  `socket: ${RUNS} raw requests, never a crash, a hang, a 5xx unasked or ` +
    `an error that is not valid JSON`,
  async () => {
    const seed = fuzzSeed();
    const stats = new FuzzStats();
    await fuzzSocket({ seed, runs: RUNS, stats });
    console.log(
      `fuzz socket: seed ${seed}, ${stats.cases.socket} cases, statuses ` +
        `${JSON.stringify(stats.summary().statuses.socket)}`,
    );
    expect(stats.cases.socket).toBe(RUNS);
  },
);

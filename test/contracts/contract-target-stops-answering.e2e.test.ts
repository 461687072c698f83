import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestTimeoutOption } from '../../cli/commands/contract-target.ts';
import { runVideotask, type CliRun } from '../helpers/cli.ts';
import {
  CATALOG,
  sendJson,
  startHostileServer,
  type HostileServer,
} from '../contracts/support/hostile-server.ts';

// Issue 14 item 11: a server that answers /v1/models and then hangs cost 6.5 minutes (13 sequential
// 30 s time-outs; the per-request limit hard-coded). Free GET probes now go out together, the run stops
// once the target stops answering, and whatever it could not ask is reported as not observed.
const KEY = ['--api-key', 'sk-qa-hang-0123456789'];
/** `videotask contract --request-timeout`'s default. */
const DEFAULT_REQUEST_LIMIT_S = 30;
/** When each request the server never answers arrived (ms, performance.now()). */
const unanswered: number[] = [];
let server: HostileServer;
beforeAll(async () => {
  server = await startHostileServer((request, response) => {
    if (request.url === '/v1/models')
      return request.headers.authorization === `Bearer ${KEY[1]}`
        ? sendJson(response, 200, CATALOG)
        : sendJson(response, 401, { error: { message: 'Invalid token', code: '' } });
    // Every other request: never answered (the connection stays open until the test ends).
    unanswered.push(performance.now());
  });
});
afterAll(() => server.close());

function expectStopped(run: CliRun): void {
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(
    new RegExp(
      String.raw`videotask contract: the target could not be checked to the end: the target stopped answering ` +
        String.raw`\(\d+ requests in a row got no answer; the last: no answer within the request time limit\)`,
    ),
  );
  expect(run.stdout).toMatch(/^stopped {2}the target stopped answering/m);
  expect(run.stdout).toMatch(/^coverage: \d+\/\d+ cells observed \(.*stopped answering/m);
  expect(run.stdout).toMatch(/Result: the run stopped early/);
}

describe('a target that answers the catalog, then hangs', () => {
  it('has a request time limit of 30 s by default', () => {
    expect(requestTimeoutOption({})).toBe(DEFAULT_REQUEST_LIMIT_S * 1000);
  });

  it('stops after one request time limit with a short --poll-timeout, saying why', async () => {
    // A 5 s limit stands in for the default 30 s one (the previous test): waiting out one limit, not
    // one per request (before: 13 in a row), means every unanswered request went out before the first
    // limit ran out. The limit is long against the few ms the free probes take to go out together.
    const limitS = 5;
    unanswered.length = 0;
    const run = await runVideotask(
      [
        'contract',
        '--base-url',
        server.url,
        ...KEY,
        '--poll-timeout',
        '20',
        '--request-timeout',
        `${limitS}`,
      ],
      { timeoutMs: 90_000 },
    );
    expectStopped(run);
    expect(unanswered.length).toBeGreaterThan(1);
    expect(Math.max(...unanswered) - Math.min(...unanswered)).toBeLessThan(limitS * 1000);
  }, 100_000);

  it('takes --request-timeout', async () => {
    const started = performance.now();
    const run = await runVideotask(
      ['contract', '--base-url', server.url, ...KEY, '--request-timeout', '1'],
      { timeoutMs: 90_000 },
    );
    expectStopped(run);
    // The 1 s limit, not the default one.
    expect((performance.now() - started) / 1000).toBeLessThan(DEFAULT_REQUEST_LIMIT_S);
  }, 100_000);
});

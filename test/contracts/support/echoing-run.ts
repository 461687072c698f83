import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { runVideotask, type CliRun } from '../../helpers/cli.ts';
import { sendJson, startHostileServer, type HostileServer } from './hostile-server.ts';

/** What a contract run printed and wrote, as the redaction tests read it. */
export interface EchoingRun {
  readonly run: CliRun;
  /** The report folder: `contract-report.json`, `contract-junit.xml`. */
  readonly dir: string;
  /** stdout, stderr and both reports' text. */
  outputs(): { stdout: string; stderr: string; json: string; junit: string };
}

/**
 * A deployment that echoes the run's key back in the given encodings (the catalog lists them as
 * model IDs; each missing-task probe is answered with one as its task), and `videotask contract
 * --tier free` run against it, once for the file (beforeAll; afterAll stops the server and removes
 * the report folder). The returned getter gives the run once it has happened.
 */
export function contractRunOnEchoes(
  key: string,
  echoes: readonly ((key: string) => string)[],
): () => EchoingRun {
  let server: HostileServer;
  let result: EchoingRun | undefined;
  let dir: string;
  beforeAll(async () => {
    server = await startHostileServer((request, response) => {
      const sent = (request.headers.authorization ?? '').replace(/^Bearer /, '');
      if (sent !== key)
        return sendJson(response, 401, { error: { message: 'Invalid token', code: '' } });
      if (request.url === '/v1/models')
        return sendJson(response, 200, {
          object: 'list',
          data: echoes.map((e) => ({ id: e(sent) })),
        });
      const echo = echoes[server.requests.length % echoes.length]!;
      sendJson(response, 200, { id: echo(sent), message: `you sent ${echo(sent)}` });
    });
    dir = mkdtempSync(join(tmpdir(), 'videotask-echoes-'));
    const args = ['contract', '--base-url', server.url, '--api-key', key, '--tier', 'free'];
    const run = await runVideotask([...args, '--report-dir', dir], { timeoutMs: 60_000 });
    result = {
      run,
      dir,
      outputs: () => ({
        stdout: run.stdout,
        stderr: run.stderr,
        json: readFileSync(join(dir, 'contract-report.json'), 'utf8'),
        junit: readFileSync(join(dir, 'contract-junit.xml'), 'utf8'),
      }),
    };
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return () => result!;
}

import { execFile } from 'node:child_process';
import { startMockServer } from './mocks/hosts/node-server.ts';
import { startPaddingProxy } from './test/contracts/support/padding-proxy.ts';
const root = process.argv[2] ?? '.';
const pad = Number(process.argv[3] ?? 1 << 20);
const mock = await startMockServer({ port: 0, speed: Number(process.argv[4] ?? 100) });
const proxy = await startPaddingProxy(mock.url, pad);
const started = Date.now();
const result = await new Promise<{ code: number | null; stderr: string; stdout: string }>((resolve) =>
  execFile('/usr/bin/time', ['-f', 'maxrss_kb=%M', process.execPath, `${root}/bin/videotask.js`, 'contract', '--base-url', proxy.url, '--api-key', 'sk-mock-alice', '--other-api-key', 'sk-mock-bob', '--poll-initial', '0.05', '--poll-max', '0.3', '--budget', '2'],
    { timeout: 600_000, maxBuffer: 64 << 20 }, (error, stdout, stderr) => resolve({ code: error === null ? 0 : (error as { code?: number }).code ?? null, stdout, stderr })));
console.log('exit', result.code, 'requests', proxy.requests(), 'seconds', (Date.now() - started) / 1000);
console.log(result.stderr.split('\n').filter((l) => /maxrss|Error|error/.test(l)).slice(-5).join('\n'));
console.log(result.stdout.split('\n').slice(-6).join('\n'));
await proxy.close(); await mock.close();

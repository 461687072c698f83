import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMockServer, type RunningMockServer } from '../../mocks/index.ts';
import { stopVideotask } from '../helpers/cli.ts';
import { FAST } from '../helpers/task-cli.ts';

// `wait`, `monitor` and `download` each handled signals their own way: `wait` caught SIGINT only, so
// SIGTERM (a CI job cancelled, `timeout`) killed it without the line that says the task goes on and how
// to wait again. All three stop through cli/signals.ts's StopSignals now: 130 after SIGINT, 143 after
// SIGTERM, each saying what happened.
let server: RunningMockServer;

// A manual clock: the task stays queued until the test is over.
beforeAll(async () => {
  server = await startMockServer({ port: 0, clock: { mode: 'manual' } });
});
afterAll(() => server.close());

it.each([
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const)('wait stops on %s, exits %i and says the task goes on', async (signal, code) => {
  const submitted = await fetch(`${server.url}/v1/videos`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk-mock-alice', 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'video-pro-v1', prompt: 'a kite' }),
  });
  const { id } = (await submitted.json()) as { id: string };
  // Stopped while polling: its progress line shows the task queued (after its first poll: soon, with
  // FAST's intervals, where the default first waits 5 s).
  const { code: exit, stderr } = await stopVideotask(['wait', id, ...FAST], {
    env: { ...process.env, VIDEOTASK_BASE_URL: server.url, VIDEOTASK_API_KEY: 'sk-mock-alice' },
    ready: (stderr) => /queued/.test(stderr),
    signal,
  });
  expect(exit).toBe(code);
  expect(stderr).toMatch(
    new RegExp(`videotask wait: stopped by ${signal}; the task goes on. Wait again`),
  );
});

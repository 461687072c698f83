import { expect, it } from 'vitest';
import { createMockService } from '../../mocks/index.ts';
import { KITE, Session, idOf } from './reference-clients.ts';
import { coreWire } from './wire.ts';

// The client coverage: each situation counts when the caller's traffic showed it, and only then, and
// each unmet one names how to produce it.

const scenario = (tag: string) => ({ ...KITE, prompt: `a kite [mock:${tag}]` });

it('counts each situation a caller met, and names how to produce the ones it never met', async () => {
  const service = createMockService({
    clock: { mode: 'manual', start: Date.UTC(2026, 10, 22) },
    seed: 'coverage',
    contentRedirect: true,
    artifactTtlMs: 60_000,
  });
  const alice = new Session(coreWire(service));
  const { wire } = alice;
  const slow = idOf(await alice.submit(scenario('slow')));
  await wire.call('GET', `/v1/videos/${slow}`); // queued
  await wire.call('GET', `/v1/video/generations/${slow}`); // queued, on the wrapper
  await wire.call('GET', `/v1/videos/${slow}/content`); // before completion
  await wire.advance(100_000);
  await wire.call('GET', `/v1/videos/${slow}`); // in_progress
  await alice.submit(scenario('rate-limit'));
  await alice.submit(scenario('lost-answer'));
  await alice.submit({ model: 'video-pro-v1', prompt: '' });
  const flaky = idOf(await alice.submit(scenario('flaky')));
  const failing = idOf(await alice.submit(scenario('fail')));
  const unknown = idOf(await alice.submit(scenario('unknown:30')));
  await wire.call('GET', `/v1/videos/${unknown}`); // unknown
  await wire.call('GET', `/v1/videos/${flaky}`); // 503
  await wire.call('GET', '/v1/videos/task_0123456789abcdefghijABCDEFGHIJ01'); // not found
  await wire.advance(10 * 60_000);
  await wire.call('GET', `/v1/videos/${failing}`); // failed
  const done = await wire.call('GET', `/v1/videos/${slow}`); // completed
  await alice.download(slow); // by redirect
  await wire.advance(60 * 60_000);
  const url = (done.body as { metadata: { url: string } }).metadata.url;
  expect((await wire.call('GET', wire.local(url), { key: null })).status).toBe(410);
  await wire.call('GET', '/v1/models', { key: 'sk-not-a-mock-key' }); // 401, another caller
  await wire.call('GET', `/v1/videos/${slow}`, { key: 'sk-not-a-mock-key' }); // 401, not "not found"

  const { coverage } = service.clientReport();
  const mine = coverage.callers.find((c) => c.user === 'alice')!;
  expect(mine.met.sort()).toEqual(
    [
      'openai:queued',
      'openai:in_progress',
      'openai:completed',
      'openai:failed',
      'openai:unknown',
      'wrapper:queued',
      'submission-429',
      'query-5xx',
      'lost-answer',
      'content-before-completion',
      'expired-result',
      'content-redirect',
      'refused-400',
      'task-not-found',
      'content-download',
      'long-running',
    ].sort(),
  );
  expect(mine.unmet.sort()).toEqual(
    [
      'wrapper:in_progress',
      'wrapper:completed',
      'wrapper:failed',
      'wrapper:unknown',
      'refused-401',
      'refused-403',
    ].sort(),
  );
  expect(mine.notApplicable).toContain('native:queued');
  expect(mine.notApplicable).toContain('second-family-unbound');
  // A key the mock does not know is no caller (issue 33 item 7): its 401 is met, by no caller.
  expect(coverage.callers.find((c) => c.caller === 'sk-…-key')).toBeUndefined();
  const unmet = coverage.situations.filter((s) => s.applicable && !s.met);
  expect(unmet.map((s) => s.id).sort()).toEqual(
    [
      'wrapper:in_progress',
      'wrapper:completed',
      'wrapper:failed',
      'wrapper:unknown',
      'refused-403',
    ].sort(),
  );
  expect(unmet.find((s) => s.id === 'wrapper:failed')!.produce).toContain('[mock:fail]');
  expect(coverage.situations.find((s) => s.id === 'refused-401')).toMatchObject({
    met: true,
    callers: [],
  });
});

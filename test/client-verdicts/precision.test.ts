import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMockService, type ClientReport, type MockOptions } from '../../mocks/index.ts';
import { KITE, Session, idOf } from './reference-clients.ts';
import { coreWire, type Wire } from './wire.ts';

// What each rule does NOT count: a client that keeps the rule in a way the rule's breach text allows
// gets no verdict, and the mock's clock is the one intervals are judged on (docs/client-verdicts.md).

const START = Date.UTC(2026, 10, 22);

function session(options: MockOptions = {}, key?: string): { s: Session; wire: Wire } {
  const service = createMockService({
    clock: { mode: 'manual', start: START },
    seed: 'p',
    ...options,
  });
  const wire = coreWire(service, key);
  return { s: new Session(wire), wire };
}

const rules = (report: ClientReport) => report.verdicts.map((v) => v.rule);
/**
 * A real clock reads the machine's monotonic time (performance.now): faked here, so a test moves it by
 * what a client would sleep instead of sleeping (a unit test sleeps for no one).
 */
const realTime = () => {
  vi.useFakeTimers({ toFake: ['performance'] });
  return { sleep: (ms: number) => void vi.advanceTimersByTime(ms) };
};

describe('resubmission (§3 rule 1, §7)', () => {
  it('is not a second submission after the first was told finished', async () => {
    const { s, wire } = session();
    const id = idOf(await s.submit());
    await s.poll(id);
    await s.job();
    expect(rules(await wire.report())).toEqual([]);
  });

  it('is not a second submission after the first finished unseen', async () => {
    const { s, wire } = session();
    await s.submit();
    await wire.advance(10 * 60_000);
    await s.submit();
    expect(rules(await wire.report())).toEqual([]);
  });

  it('is not another prompt while a task runs', async () => {
    const { s, wire } = session();
    await s.submit();
    await s.submit({ ...KITE, prompt: 'a blue kite' });
    await s.submit({ ...KITE, metadata: { duration: 8 } });
    expect(rules(await wire.report())).toEqual([]);
  });

  it('is a submission under the same request ID while the first runs, whatever its body', async () => {
    const { s, wire } = session();
    const clientRequestId = randomUUID();
    await s.submit(KITE, { clientRequestId });
    await s.submit({ ...KITE, prompt: 'a blue kite' }, { clientRequestId });
    expect(rules(await wire.report())).toEqual(['no-resubmission']);
  });

  it('is the same body on the other submission route, or as multipart fields', async () => {
    const { s, wire } = session({ profile: 'observed' });
    await s.submit({ ...KITE, seconds: '8' }, { path: '/v1/videos' });
    const raw =
      '--B\r\nContent-Disposition: form-data; name="model"\r\n\r\nvideo-pro-v1\r\n' +
      '--B\r\nContent-Disposition: form-data; name="seconds"\r\n\r\n8\r\n' +
      '--B\r\nContent-Disposition: form-data; name="prompt"\r\n\r\na red kite\r\n--B--\r\n';
    const multipart = { 'content-type': 'multipart/form-data; boundary=B' };
    await s.submit(KITE, { raw, headers: multipart, path: '/v1/videos' });
    expect(rules(await wire.report()).sort()).toEqual(['multipart-submission', 'no-resubmission']);
  });

  it('is not judged on a submission whose answer was lost (its client saw no task)', async () => {
    const { s, wire } = session();
    const lost = { ...KITE, prompt: 'a kite [mock:lost-answer]' };
    const clientRequestId = randomUUID();
    await s.submit(lost, { clientRequestId });
    await s.submit(lost, { clientRequestId });
    expect(rules(await wire.report())).toEqual([]);
  });
});

describe('retries of a refused submission (§7)', () => {
  it('counts none once the request was fixed', async () => {
    const { s, wire } = session();
    await s.submit({ model: 'video-pro-v1', prompt: '' });
    await s.submit(KITE);
    expect(rules(await wire.report())).toEqual([]);
  });

  it('counts none when the mock changed what refused it (the family bound)', async () => {
    const { s, wire } = session({}, 'sk-mock-vip');
    const alt = { model: 'alt-video-v2', prompt: 'a paper boat' };
    expect((await s.submit(alt, { path: '/v1/videos' })).status).toBeGreaterThanOrEqual(400);
    const bind = await wire.call('PUT', '/__mock/family', { body: { bound: true }, key: null });
    expect(bind.status).toBe(200);
    expect((await s.submit(alt, { path: '/v1/videos' })).status).toBe(200);
    expect(rules(await wire.report())).toEqual([]);
  });

  it.each([
    ['honour Retry-After (2 s, 2 s, 2 s)', [2_000, 2_000, 2_000]],
    ['double from Retry-After (2 s, 4 s, 8 s)', [2_000, 4_000, 8_000]],
    ['grow with jitter (2.1 s, 3.9 s, 8.3 s)', [2_100, 3_900, 8_300]],
  ])('counts no 429 retries whose waits %s', async (_name, waits) => {
    const { s, wire } = session();
    const limited = { ...KITE, prompt: 'a kite [mock:rate-limit]' };
    const clientRequestId = randomUUID();
    await s.submit(limited, { clientRequestId });
    for (const wait of waits) {
      await wire.advance(wait);
      await s.submit(limited, { clientRequestId });
    }
    expect(rules(await wire.report())).toEqual([]);
  });
});

describe('lost answers (§7)', () => {
  it('allows three repeats under the same request ID', async () => {
    const { s, wire } = session();
    const lost = { ...KITE, prompt: 'a kite [mock:lost-answer]' };
    const clientRequestId = randomUUID();
    for (let attempt = 0; attempt < 4; attempt++) {
      await s.submit(lost, { clientRequestId });
      await wire.advance(10_000);
    }
    expect(rules(await wire.report())).toEqual([]);
  });
});

describe('polling (§3, §7, §8) on the mock clock', () => {
  afterEach(() => void vi.useRealTimers());

  it('judges no pace when a manual clock was not moved between queries', async () => {
    const { s, wire } = session();
    const id = idOf(await s.submit({ ...KITE, prompt: 'a kite [mock:unknown:60]' }));
    for (let query = 0; query < 5; query++) await wire.call('GET', `/v1/videos/${id}`);
    expect(rules(await wire.report())).toEqual([]);
  });

  it('judges a test that moves the clock by ten minutes and polls once as polling every ten minutes', async () => {
    const { s, wire } = session();
    const id = idOf(await s.submit({ ...KITE, prompt: 'a kite [mock:stuck]' }));
    for (let query = 0; query < 3; query++) {
      await wire.advance(10 * 60_000);
      await wire.call('GET', `/v1/videos/${id}`);
    }
    // Never too fast; slower than §8's ceiling while the task still runs: one advice about the task,
    // counted for each interval between two running answers (the first is from the submission).
    const report = await wire.report();
    expect(report.verdicts.map((v) => [v.rule, v.outcome, v.count])).toEqual([
      ['poll-ceiling', 'advice', 2],
    ]);
  });

  it('judges nothing of a test that moves the clock by ten minutes to a task that completed', async () => {
    const { s, wire } = session();
    const id = idOf(await s.submit());
    await wire.call('GET', `/v1/videos/${id}`);
    await wire.advance(10 * 60_000);
    await wire.call('GET', `/v1/videos/${id}`);
    expect(rules(await wire.report())).toEqual([]);
  });

  it('judges intervals of a real clock at its speed (60 ms × 100 is 6 s)', async () => {
    const { sleep } = realTime();
    const service = createMockService({ speed: 100, seed: 'p' });
    const wire = coreWire(service);
    const id = idOf(await new Session(wire).submit({ ...KITE, prompt: 'a kite [mock:stuck]' }));
    for (let query = 0; query < 3; query++) {
      sleep(60);
      await wire.call('GET', `/v1/videos/${id}`);
    }
    expect(rules(await wire.report())).toEqual([]);
  });

  it('advises on polling a real clock far faster than §8', async () => {
    const { sleep } = realTime();
    const wire = coreWire(createMockService({ seed: 'p' }));
    const id = idOf(await new Session(wire).submit({ ...KITE, prompt: 'a kite [mock:stuck]' }));
    for (let query = 0; query < 3; query++) {
      sleep(50);
      await wire.call('GET', `/v1/videos/${id}`);
    }
    const report = await wire.report();
    expect(rules(report)).toEqual(['poll-interval']);
    expect(report.verdicts[0]).toMatchObject({ outcome: 'advice', section: '§8', count: 2 });
  });

  it('does not count retries after a 5xx as polling pace', async () => {
    const { s, wire } = session();
    const id = idOf(await s.submit({ ...KITE, prompt: 'a kite [mock:flaky:1]' }));
    await wire.advance(5_000);
    for (let retry = 0; retry < 4; retry++) await wire.call('GET', `/v1/videos/${id}`);
    expect(rules(await wire.report())).toEqual([]);
  });

  it('allows three re-reads of a finished task (a fresh result address, the other form)', async () => {
    const { s, wire } = session();
    const id = idOf(await s.submit());
    await s.poll(id);
    await wire.call('GET', `/v1/video/generations/${id}`);
    await wire.advance(2 * 60 * 60_000);
    await wire.call('GET', `/v1/videos/${id}`);
    await wire.call('GET', `/v1/videos/${id}`);
    expect(rules(await wire.report())).toEqual([]);
  });

  it('takes the growth of a §8 loop as the lower rate `unknown` asks for', async () => {
    const { s, wire } = session();
    const factor = (n: number) => Math.round(5_000 * 1.5 ** (n - 1));
    await s.job({ ...KITE, prompt: 'a kite [mock:unknown:30]' }, { wait: factor, attempts: 12 });
    expect(rules(await wire.report())).toEqual([]);
  });

  it('finds a loop at its 30 s ceiling that does not slow down on `unknown`', async () => {
    const { s, wire } = session();
    const id = idOf(await s.submit({ ...KITE, prompt: 'a kite [mock:unknown:120]' }));
    await s.poll(id, { wait: () => 30_000, attempts: 3 });
    expect(rules(await wire.report())).toEqual(['unknown-slows-polling']);
  });
});

describe('redirects and headers (§4.4, §5)', () => {
  it('waits for the follow-up before judging a redirect', async () => {
    const { s, wire } = session({ contentRedirect: true });
    const id = idOf(await s.submit());
    await s.poll(id);
    await s.download(id, false);
    expect(rules(await wire.report())).toEqual([]);
    await s.download(id);
    await wire.call('GET', '/v1/models');
    expect(rules(await wire.report())).toEqual([]);
  });

  it('counts a wrong key as a 401, not as a missing header', async () => {
    const { wire } = session();
    const answer = await wire.call('GET', '/v1/models', { key: 'sk-not-a-mock-key' });
    expect(answer.status).toBe(401);
    const report = await wire.report();
    expect(rules(report)).toEqual([]);
    // A key the mock does not know is no caller (issue 33 item 7): the 401 is met, by no caller.
    expect(report.counts.callers).toBe(0);
    expect(report.coverage.situations.find((s) => s.id === 'refused-401')!.met).toBe(true);
  });
});

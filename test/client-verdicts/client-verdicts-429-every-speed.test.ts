// Issue 32 item 1 (example 1): the 429 rule could not fire above --speed 1. The mock sent Retry-After
// in real seconds (÷ speed) while the judge compared it with waits on the mock's clock, as if it were
// mock seconds: at --speed 100 four submissions sent back to back on a 429 got nothing (they did at 1
// and 10), and a client that retried once, 10 ms after a 429 with Retry-After: 2, got nothing at any
// speed (backoff was judged only after two 429s in a row). Now Retry-After is read onto the mock's
// clock, the first retry is judged, and every speed and the manual clock give the same verdict.
import { describe, expect, it } from 'vitest';
import { createMockService, type MockOptions } from '../../mocks/index.ts';
import { coreWire } from '../client-verdicts/wire.ts';

const LIMITED = { model: 'video-pro-v1', prompt: 'a kite [mock:rate-limit]' };
const START = Date.UTC(2026, 10, 22);
const CLOCKS: readonly [string, MockOptions['clock']][] = [
  ['--speed 1', { speed: 1, start: START }],
  ['--speed 10', { speed: 10, start: START }],
  ['--speed 100', { speed: 100, start: START }],
  ['the manual clock', { mode: 'manual', start: START }],
];

/** A client of the service that waits `realMs` as a client does: on a real clock, that many real ms. */
function setUp(clock: MockOptions['clock']) {
  const service = createMockService({ clock, seed: 'regression-429' });
  const wire = coreWire(service);
  const speed = service.clock.speed;
  // Moving the clock stands for the wait (a unit test sleeps for no one): realMs × speed mock ms.
  const wait = (realMs: number) => wire.advance(realMs * speed);
  const submit = () =>
    wire.call('POST', '/v1/videos', { body: LIMITED, headers: { 'x-request-id': 'kite-1' } });
  const verdicts = () => service.clientReport().verdicts.map((v) => [v.rule, v.section]);
  return { submit, wait, verdicts };
}

describe.each(CLOCKS)('a submission answered 429, on %s', (_name, clock) => {
  it('sent four times back to back is a §7 violation', async () => {
    const { submit, wait, verdicts } = setUp(clock);
    for (let n = 0; n < 4; n++) {
      expect((await submit()).status).toBe(429);
      await wait(1); // one real ms apart, as a loop that does not wait at all
    }
    expect(verdicts()).toEqual([['backoff-after-429', '§7']]);
  });

  it('retried once, 10 ms after its Retry-After: 2, is a §7 violation', async () => {
    const { submit, wait, verdicts } = setUp(clock);
    const answer = await submit();
    expect(answer.status).toBe(429);
    expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    await wait(10);
    await submit();
    expect(verdicts()).toEqual([['backoff-after-429', '§7']]);
  });

  it('retried after the Retry-After it was told (in real seconds) is no violation', async () => {
    const { submit, wait, verdicts } = setUp(clock);
    const told = Number((await submit()).headers['retry-after']);
    await wait(told * 1000);
    await submit();
    await wait(told * 1000 * 2);
    await submit();
    expect(verdicts()).toEqual([]);
  });
});

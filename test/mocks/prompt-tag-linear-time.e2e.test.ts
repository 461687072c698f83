import { afterAll, beforeAll, expect, it } from 'vitest';
import { Redactor } from '../../src/redaction/redactor.ts';
import { parseRange } from '../../mocks/core/http/media.ts';
import { promptTag } from '../../mocks/core/plan/scenarios.ts';
import { startMockServer, type RunningMockServer } from '../../mocks/index.ts';

// Issue 24 item 1: the prompt's `[mock:…]` tag was found by a backtracking pattern, quadratic in the
// prompt: `"[mock:a:"` × 32,000 (256 KB) froze the whole mock for 17–28 s, 512 KB for 73 s, from any
// page on any origin. The `Range` header (adjacent `\s*`) and the contract runner's URL-credential
// redaction (`scheme://` scanned from every letter: 100 KB of letters took 13 s) were quadratic too.
// Linear code does each of these inputs in milliseconds; the bounds below are hundreds of times that,
// and a tenth of what the quadratic code needed, so a loaded machine cannot fail them but a regression
// to any quadratic scan does.
const HUGE_TAGS = '[mock:a:'.repeat(64_000); // 512 KB
const BOUND_MS = 5_000;

function timed(work: () => void): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}

let server: RunningMockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0, clock: { mode: 'manual' } });
});
afterAll(() => server.close());

it('finds prompt tags exactly as before', () => {
  expect(promptTag('x [mock:fail] y')).toEqual({ name: 'fail', arg: undefined });
  expect(promptTag('[mock:fail:Code1]')).toEqual({ name: 'fail', arg: 'Code1' });
  expect(promptTag('[mock:a:[mock:fail]')).toEqual({ name: 'a', arg: '[mock:fail' });
  expect(promptTag('[mock:fail:a b] [mock:slow]')).toEqual({ name: 'slow', arg: undefined });
  expect(promptTag('[mock:a:b:c]')).toEqual({ name: 'a', arg: 'b:c' });
  expect(promptTag('[mock:] [mock:x')).toBeUndefined();
  expect(promptTag('[mock:Fail]')).toBeUndefined();
});

it('reads a 512 KB prompt of unclosed tags in linear time', () => {
  expect(timed(() => expect(promptTag(HUGE_TAGS)).toBeUndefined())).toBeLessThan(BOUND_MS);
  const closed = `${HUGE_TAGS}]`; // the last tag's argument runs to the end: one scan, not one per tag
  expect(timed(() => expect(promptTag(closed)?.name).toBe('a'))).toBeLessThan(BOUND_MS);
});

it('answers a 512 KB prompt of tags over HTTP and stays responsive', async () => {
  const submission = fetch(`${server.url}/v1/videos`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk-mock-alice', 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'video-pro-v1', prompt: HUGE_TAGS }),
    signal: AbortSignal.timeout(BOUND_MS * 2),
  });
  const answer = await submission;
  expect(answer.status).toBe(200); // no tag closes: the default scenario
  const catalog = await fetch(`${server.url}/v1/models`, {
    headers: { authorization: 'Bearer sk-mock-alice' },
    signal: AbortSignal.timeout(BOUND_MS),
  });
  expect(catalog.status).toBe(200);
});

it('reads a Range header of 100,000 spaces in linear time, as before', () => {
  const header = `bytes=${' '.repeat(100_000)}x`;
  expect(timed(() => expect(parseRange(header, 10)).toEqual({ kind: 'full' }))).toBeLessThan(
    BOUND_MS,
  );
  expect(parseRange('bytes= 1 - 5 ', 10)).toEqual({ kind: 'partial', start: 1, end: 5 });
  expect(parseRange('BYTES=-4', 10)).toEqual({ kind: 'partial', start: 6, end: 9 });
  expect(parseRange('bytes=1-5-7', 10)).toEqual({ kind: 'full' });
});

it('redacts URL credentials in a 1 MB answer in linear time', () => {
  const redactor = new Redactor(['sk-live-0123456789abcdef']);
  const letters = 'a'.repeat(1_000_000);
  expect(timed(() => expect(redactor.redact(letters)).toBe(letters))).toBeLessThan(BOUND_MS);
  const noAt = `a://${'x'.repeat(1_000_000)}`;
  expect(timed(() => redactor.redact(noAt))).toBeLessThan(BOUND_MS);
  expect(redactor.redact('see https://user:pw@host/x and 1abc://u@h')).toBe(
    'see https://…@host/x and 1abc://…@h',
  );
});

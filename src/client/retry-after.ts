/**
 * `Retry-After` as milliseconds: a number of seconds or an HTTP date (RFC 9110 §10.2.3).
 *
 * @example
 * retryAfterMs('3'); // 3000
 */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

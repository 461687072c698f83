/**
 * Up-front option checks for the client's loops (poller, retries, resume): a wrong option fails at
 * the call with a `RangeError` naming it, never half-way through a poll.
 */

/**
 * `value` when it is a finite number ≥ `min` (and a whole number when `integer`); otherwise a
 * `RangeError` naming the option.
 *
 * @example
 * checkNumber('maxAttempts', 0, 1, true); // RangeError: maxAttempts must be a whole number ≥ 1, got 0
 */
export function checkNumber(name: string, value: number, min: number, integer = false): number {
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value < min ||
    (integer && !Number.isInteger(value))
  ) {
    throw new RangeError(
      `${name} must be ${integer ? 'a whole number' : 'a finite number'} ≥ ${min}, got ${String(value)}`,
    );
  }
  return value;
}

/** `value` when it is a number in [0, 1]; otherwise a `RangeError` naming the option. */
export function checkFraction(name: string, value: number): number {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1))
    throw new RangeError(`${name} must be between 0 and 1, got ${String(value)}`);
  return value;
}

/** `value` when it is a function; otherwise a `RangeError` naming the option. */
export function checkFunction<F>(name: string, value: F): F {
  if (typeof value !== 'function')
    throw new RangeError(`${name} must be a function, got ${typeof value}`);
  return value;
}

/** `value` when it is a non-empty string; otherwise a `RangeError` naming the option. */
export function checkId(name: string, value: string): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw new RangeError(`${name} must be a non-empty string, got ${JSON.stringify(value)}`);
  return value;
}

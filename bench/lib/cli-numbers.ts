// The numbers a benchmark's flags take (bench/*.ts): one check and one message for each kind.
import { BenchFlagError } from './cli-flags.ts';

/** A flag's value as a positive number, or an error naming the flag and what it got. */
export function positive(name: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new BenchFlagError(`--${name} wants a positive number, got "${raw}"`);
  return value;
}

/** A flag's value as a positive whole number (rounds, connections, tasks), or an error naming it. */
export function count(name: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new BenchFlagError(`--${name} wants a positive integer, got "${raw}"`);
  return value;
}

/** A flag's value as a number ≥ 0 (a warm-up, a wait that may be none), or an error naming it. */
export function nonNegative(name: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0)
    throw new BenchFlagError(`--${name} wants a number ≥ 0, got "${raw}"`);
  return value;
}

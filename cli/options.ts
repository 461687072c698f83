import { UsageError } from './usage-error.ts';

/** A numeric flag's value, or `undefined` when absent; a bad value is a `UsageError` naming the flag. */
export function numberOption(flag: string, raw: string | undefined, rule: { integer?: boolean; min?: number; max?: number } = {}): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  const kind = rule.integer === true ? 'an integer' : 'a number';
  if (raw.trim() === '' || !Number.isFinite(value) || (rule.integer === true && !Number.isInteger(value))) throw new UsageError(`${flag} must be ${kind}, got "${raw}"`);
  if (rule.min !== undefined && value < rule.min) throw new UsageError(`${flag} must be ${rule.min === Number.MIN_VALUE ? 'above 0' : `at least ${rule.min}`}, got ${raw}`);
  if (rule.max !== undefined && value > rule.max) throw new UsageError(`${flag} must be at most ${rule.max}, got ${raw}`);
  return value;
}

// The numbers a benchmark's flags take (bench/*.ts): one check and one message for all of them.

/** A flag's value as a positive number, or an error naming the flag and what it got. */
export function positive(name: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`--${name} wants a positive number, got "${raw}"`);
  return value;
}

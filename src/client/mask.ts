/** `sk-…abcd`: the only form in which an API key may appear in output, logs, reports or errors. */
export function maskKey(key: string): string {
  if (key.length <= 8) return '…';
  return `${key.slice(0, 3)}…${key.slice(-4)}`;
}

/** Replaces every occurrence of each secret in `text` by its mask. */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets)
    if (secret !== undefined && secret.length >= 4) out = out.split(secret).join(maskKey(secret));
  // A bearer header that slipped into a message, whatever its key.
  return out.replace(
    /(Bearer\s+)([A-Za-z0-9._~+/-]{6,})/g,
    (_m, prefix: string, key: string) => `${prefix}${maskKey(key)}`,
  );
}

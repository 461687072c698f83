/**
 * The library's option names in a client error, as the CLI user knows them: `baseUrl` → `--base-url`,
 * `apiKey` → `--api-key` (a user of `videotask status` never typed `baseUrl`).
 */
const FLAGS: readonly (readonly [RegExp, string])[] = [
  [/\bbaseUrl\b/g, '--base-url'],
  [/\bapiKey\b/g, '--api-key'],
];

export function withFlagNames(message: string): string {
  return FLAGS.reduce((text, [option, flag]) => text.replace(option, flag), message);
}

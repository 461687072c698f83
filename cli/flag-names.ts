/** The library's option names a client error may hold, and the flag each is given as on the command line. */
const FLAGS = { baseUrl: '--base-url', apiKey: '--api-key' } as const;

export type OptionName = keyof typeof FLAGS;

/**
 * The library's option names in a client error, as the CLI user knows them: `baseUrl` → `--base-url`,
 * `apiKey` → `--api-key` (a user of `videotask status` never typed `baseUrl`), or the environment
 * variable the value came from (`VIDEOTASK_BASE_URL`), when `names` says so.
 */
export function withFlagNames(
  message: string,
  names: Partial<Record<OptionName, string>> = {},
): string {
  return (Object.keys(FLAGS) as OptionName[]).reduce(
    (text, option) =>
      text.replace(new RegExp(`\\b${option}\\b`, 'g'), names[option] ?? FLAGS[option]),
    message,
  );
}

import { readOptionFile } from './option-file.ts';
import { UsageError } from './usage-error.ts';

/** The secret from --secret, --secret-file or VIDEOTASK_MOCK_SECRET (in that order), and where it came from. */
export function readSecret(
  flag: string | undefined,
  file: string | undefined,
): { value: string; source: string } | undefined {
  if (flag !== undefined && file !== undefined)
    throw new UsageError('give --secret or --secret-file, not both');
  if (flag !== undefined) {
    if (flag === '') throw new UsageError('--secret must not be empty');
    return { value: flag, source: '--secret' };
  }
  if (file !== undefined) {
    const { text } = readOptionFile('--secret-file', file);
    const value = text.replace(/\r?\n$/, '');
    if (value === '') throw new UsageError(`--secret-file ${file} is empty: put the secret in it`);
    return { value, source: `--secret-file ${file}` };
  }
  const env = process.env['VIDEOTASK_MOCK_SECRET'];
  return env === undefined || env === ''
    ? undefined
    : { value: env, source: 'VIDEOTASK_MOCK_SECRET' };
}

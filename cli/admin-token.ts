import { readOptionFile } from './option-file.ts';
import { UsageError } from './usage-error.ts';

/** The control API's admin token and where it came from (for the banner: never the token itself). */
export interface AdminToken {
  readonly token: string;
  readonly source: '--admin-token' | '--admin-token-file' | 'VIDEOTASK_ADMIN_TOKEN';
  /** Something the user should know (the token is visible on argv; the file is readable by others). */
  readonly warning?: string | undefined;
}

export const ADMIN_TOKEN_ENV = 'VIDEOTASK_ADMIN_TOKEN';

/** Visible ASCII, as a bearer token in an HTTP header needs; never shown back in an error. */
const TOKEN_TEXT = /^[\x21-\x7e]+$/;

/**
 * The admin token from `--admin-token`, `--admin-token-file FILE` (its first line) or the environment
 * variable `VIDEOTASK_ADMIN_TOKEN`, in that order; `undefined` when none is set. Both flags at once, an
 * unreadable or empty file, or a token that cannot travel in a header are usage errors (exit 2) that
 * never include the token.
 */
export function adminTokenFrom(
  flag: string | undefined,
  file: string | undefined,
  env: NodeJS.ProcessEnv,
): AdminToken | undefined {
  if (flag !== undefined && file !== undefined)
    throw new UsageError('give --admin-token or --admin-token-file, not both');
  if (flag !== undefined)
    return {
      token: checked(flag, '--admin-token'),
      source: '--admin-token',
      warning:
        `--admin-token on the command line is visible to every user of this ` +
        `machine (ps); prefer ${ADMIN_TOKEN_ENV} or --admin-token-file`,
    };
  if (file !== undefined) return fromFile(file);
  const fromEnv = env[ADMIN_TOKEN_ENV];
  if (fromEnv === undefined || fromEnv === '') return undefined;
  return { token: checked(fromEnv, ADMIN_TOKEN_ENV), source: ADMIN_TOKEN_ENV };
}

function fromFile(file: string): AdminToken {
  const { text, mode } = readOptionFile('--admin-token-file', file);
  const token = checked((text.split(/\r?\n/)[0] ?? '').trim(), `--admin-token-file ${file}`);
  const warning =
    (mode & 0o077) === 0
      ? undefined
      : `--admin-token-file ${file} is readable by other users (mode ${(mode & 0o777).toString(8)}): chmod 600 it`;
  return { token, source: '--admin-token-file', warning };
}

function checked(token: string, where: string): string {
  if (token === '') throw new UsageError(`${where}: the admin token is empty`);
  if (!TOKEN_TEXT.test(token))
    throw new UsageError(
      `${where}: the admin token must be visible ASCII without spaces (it travels in an Authorization header)`,
    );
  return token;
}

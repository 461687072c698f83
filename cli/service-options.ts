import { VideoTaskClient } from '../src/client/index.ts';
import { Redactor } from '../src/redaction/redactor.ts';
import { toolHeaders, type Tool } from '../src/tool-mark.ts';
import { withFlagNames, flagOrEnv, UsageError } from './options.ts';
import { hideInOutput } from './output.ts';

/** The flags every service command takes. */
export const SERVICE_FLAGS = {
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
} as const;

export const SERVICE_HELP =
  '  --base-url URL        the service (default http://127.0.0.1:4010, the local mock) ' +
  `[VIDEOTASK_BASE_URL]
  --api-key KEY         the API key [VIDEOTASK_API_KEY]`;

const DEFAULT_BASE_URL = 'http://127.0.0.1:4010';

/**
 * A client for the service named by flags or `VIDEOTASK_*` variables. Without a key, the error names
 * the local mock's key that can do what the command does (`mockKey`: `sk-mock-vip` for the second
 * family, which `sk-mock-alice` cannot use). A tool of the project's own (`verify-family`, `monitor`)
 * names itself (`tool`) and marks its requests (`X-Videotask-Tool`, decisions/045); the commands a
 * client team runs as its client (`submit`, `wait`, `download`, `status`) do not.
 */
export function clientFrom(
  values: {
    'base-url'?: string | undefined;
    'api-key'?: string | undefined;
    tool?: Tool | undefined;
  },
  mockKey = 'sk-mock-alice',
): VideoTaskClient {
  const { tool } = values;
  const given = flagOrEnv('--base-url', values['base-url'], 'VIDEOTASK_BASE_URL');
  const baseUrl = given.value ?? DEFAULT_BASE_URL;
  const apiKey = values['api-key'] ?? process.env['VIDEOTASK_API_KEY'];
  if (apiKey === undefined || apiKey === '')
    throw new UsageError(
      `an API key is needed: pass --api-key KEY or set VIDEOTASK_API_KEY (the local mock accepts ${mockKey})`,
    );
  hideInOutput(apiKey);
  try {
    return new VideoTaskClient({
      baseUrl,
      apiKey,
      headers: tool === undefined ? undefined : toolHeaders(tool),
    });
  } catch (error) {
    const message = withFlagNames((error as Error).message, { baseUrl: given.name });
    throw new UsageError(new Redactor([apiKey]).redact(message));
  }
}

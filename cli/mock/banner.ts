import type { MockService } from '../../mocks/node/create-mock-service.ts';
import { BUILT_IN_TOKENS, type MockToken } from '../../mocks/core/keys/tokens.ts';
import { printable } from '../../src/text/printable.ts';
import { maskKey } from '../../src/redaction/redactor.ts';
import type { AdminToken } from './settings.ts';

export interface BannerFacts {
  /** The profile's name (a learned one's is the file's text: printed through `printable`). */
  readonly profile: string;
  /** `manual` or the real clock's speed (`1×`). */
  readonly clock: string;
  /** `--rate-limit` as given, if any. */
  readonly rate: string | undefined;
  readonly defectNames: readonly string[];
  readonly admin: AdminToken | undefined;
  /** Where `--secret-file`/`--secret`/`VIDEOTASK_MOCK_SECRET` came from, if given. */
  readonly secretSource: string | undefined;
}

/** What the banner reads of the service. */
export type BannerService = Pick<MockService, 'family' | 'seed' | 'tokens' | 'stateFile'>;

/**
 * What `videotask mock` prints once listening; its first line is the readiness line scripts wait
 * for. Never a secret.
 */
export function mockBanner(url: string, service: BannerService, facts: BannerFacts): string[] {
  const family = service.family.bound
    ? 'bound (type 61)'
    : 'not bound (type 54, plugin 1.0.5 enabled)';
  const rate = facts.rate === undefined ? '' : ` · rate limit ${facts.rate}`;
  const builtIn = new Set(BUILT_IN_TOKENS.map((t) => t.key));
  const control =
    facts.admin === undefined
      ? 'loopback only'
      : `admin token required, from ${facts.admin.source}`;
  return [
    `videotask mock listening on ${url}`,
    // A learned profile's name, host and file name are text from a file: never a terminal's command.
    `  profile ${oneLine(facts.profile)} · clock ${facts.clock} · seed ${service.seed} · ` +
      `second family ${family}${rate}`,
    ...(facts.defectNames.length > 0
      ? [`  DEFECTS (a deliberately broken deployment): ${facts.defectNames.join(', ')}`]
      : []),
    '  API keys (Authorization: Bearer <key>):',
    ...service.tokens
      .list()
      .map((t) => `    ${(builtIn.has(t.key) ? t.key : maskKey(t.key)).padEnd(18)} ${describe(t)}`),
    `  control API: ${url}/__mock/ (${control})`,
    `  API reference: ${url}/docs (keys pre-filled for "Try it out")`,
    `  secret: ${describeSecret(service, facts.secretSource)}`,
    ...(service.stateFile === undefined ? [] : [`  state file: ${describeState(service)}`]),
  ];
}

/** Text from a file on one line of the banner, safe for a terminal (a line break shown as `\n`). */
const oneLine = (text: string) => printable(text).replace(/\n/g, '\\n').replace(/\t/g, ' ');

function describeState(service: BannerService): string {
  const file = service.stateFile!;
  const restored = file.restored;
  if (restored === undefined) return `${file.path} (new)`;
  const torn =
    restored.ignoredBytes > 0 ? `; ignored a torn last line (${restored.ignoredBytes} bytes)` : '';
  const count = restored.tasks.length;
  return (
    `${file.path} (restored ${count} task${count === 1 ? '' : 's'}, clock ` +
    `${new Date(restored.clock).toISOString()}, start ` +
    `${restored.starts + 1}${torn})`
  );
}

/** Where the secret comes from; never the secret itself. */
function describeSecret(service: BannerService, source: string | undefined): string {
  if (source !== undefined) return `from ${source}`;
  if (service.stateFile !== undefined) return `kept in the state file ${service.stateFile.path}`;
  return 'random, this process only (--secret-file or VIDEOTASK_MOCK_SECRET shares one with replicas)';
}

function describe(token: MockToken): string {
  const parts = [`user ${token.user}`, `group ${token.group}`];
  if (token.models !== undefined) parts.push(`only ${token.models.join(', ')}`);
  if (token.quota === 'exhausted') parts.push('quota exhausted');
  return parts.join(', ');
}

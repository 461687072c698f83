/**
 * API keys the mock accepts, each belonging to a user (tasks are owned by users, §5) in a group, with
 * an optional list of allowed models and a quota state.
 */
export interface MockToken {
  readonly key: string;
  /** The user behind the key; tasks belong to users, so two keys of one user share tasks. */
  readonly user: string;
  /** `default` or `vip` (the group that may use the second family once it is bound). */
  readonly group: string;
  /** Models this token may use; absent means every model of its group. */
  readonly models?: readonly string[] | undefined;
  /** `exhausted`: submissions are refused with 403 `insufficient_user_quota`. */
  readonly quota?: 'ok' | 'exhausted' | undefined;
  readonly description?: string | undefined;
}

export const BUILT_IN_TOKENS: readonly MockToken[] = [
  { key: 'sk-mock-alice', user: 'alice', group: 'default', description: 'ordinary user' },
  {
    key: 'sk-mock-bob',
    user: 'bob',
    group: 'default',
    description: 'ordinary user (a second owner, for isolation tests)',
  },
  {
    key: 'sk-mock-vip',
    user: 'vip',
    group: 'vip',
    description: 'vip group (second family, once bound)',
  },
  {
    key: 'sk-mock-limited',
    user: 'limited',
    group: 'default',
    models: ['video-lite-v1'],
    description: 'allowed one model only: video-lite-v1',
  },
  {
    key: 'sk-mock-broke',
    user: 'broke',
    group: 'default',
    quota: 'exhausted',
    description: 'quota exhausted',
  },
];

/** The keys a service accepts: fixed when it starts (nothing adds, changes or removes one later). */
export class TokenDirectory {
  readonly #byKey = new Map<string, MockToken>();
  /**
   * The header value `authenticate` read last and its answer. A client sends the same header with
   * every request: comparing it with the last one costs less than taking it apart and hashing the
   * key (issue 23). Never stale: the directory does not change, so a header's answer does not either.
   */
  #lastAuthorization: string | undefined = undefined;
  #lastToken: MockToken | undefined = undefined;

  constructor(tokens: readonly MockToken[]) {
    for (const token of tokens) this.#byKey.set(token.key, token);
  }

  /** The token for an `Authorization` header value, or undefined for a missing, malformed or unknown key. */
  authenticate(authorization: string | undefined): MockToken | undefined {
    if (authorization === this.#lastAuthorization) return this.#lastToken;
    const token = this.#tokenOf(authorization);
    this.#lastAuthorization = authorization;
    this.#lastToken = token;
    return token;
  }

  #tokenOf(authorization: string | undefined): MockToken | undefined {
    if (authorization === undefined || authorization.length < 8) return undefined;
    const scheme = authorization.slice(0, 7);
    if (scheme !== 'Bearer ' && scheme.toLowerCase() !== 'bearer ') return undefined;
    return this.#byKey.get(authorization.slice(7).trim());
  }

  list(): readonly MockToken[] {
    return [...this.#byKey.values()];
  }

  /** Every user with a key, once each. */
  users(): readonly string[] {
    return [...new Set([...this.#byKey.values()].map((t) => t.user))];
  }
}

/**
 * Reads the tokens of a config file's parsed JSON: `{ "tokens": [...], "replaceBuiltIn": false }`.
 * Throws naming the entry and field that is wrong.
 */
export function tokensFromConfig(config: unknown): {
  tokens: MockToken[];
  replaceBuiltIn: boolean;
} {
  if (config === null || typeof config !== 'object' || Array.isArray(config))
    throw new Error('the config must be a JSON object like {"tokens": [...]}');
  const { tokens, replaceBuiltIn = false } = config as {
    tokens?: unknown;
    replaceBuiltIn?: unknown;
  };
  if (typeof replaceBuiltIn !== 'boolean')
    throw new Error('"replaceBuiltIn" must be true or false');
  if (tokens === undefined) return { tokens: [], replaceBuiltIn };
  if (!Array.isArray(tokens)) throw new Error('"tokens" must be a list');
  return {
    replaceBuiltIn,
    tokens: tokens.map(tokenOf),
  };
}

/** One entry of `tokens`, checked: a key without spaces, a user, a group, models, a quota. */
function tokenOf(raw: unknown, i: number): MockToken {
  const where = `tokens[${i}]`;
  if (raw === null || typeof raw !== 'object') throw new Error(`${where} must be an object`);
  const t = raw as Record<string, unknown>;
  for (const field of ['key', 'user'] as const)
    if (typeof t[field] !== 'string' || t[field].trim() === '')
      throw new Error(`${where}.${field} must be a non-empty string`);
  if (/\s/.test(t['key'] as string)) throw new Error(`${where}.key must not contain spaces`);
  const group = t['group'] ?? 'default';
  if (typeof group !== 'string' || group === '')
    throw new Error(`${where}.group must be a non-empty string`);
  const models = modelList(t['models'], where);
  const quota = t['quota'] ?? 'ok';
  if (quota !== 'ok' && quota !== 'exhausted')
    throw new Error(`${where}.quota must be "ok" or "exhausted"`);
  return {
    key: t['key'] as string,
    user: t['user'] as string,
    group,
    models,
    quota,
    description: typeof t['description'] === 'string' ? t['description'] : undefined,
  };
}

/** A token's optional `models`: a list of model IDs. */
function modelList(models: unknown, where: string): string[] | undefined {
  if (
    models !== undefined &&
    (!Array.isArray(models) || !models.every((m) => typeof m === 'string'))
  )
    throw new Error(`${where}.models must be a list of model IDs`);
  return models;
}

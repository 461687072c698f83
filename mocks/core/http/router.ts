import type { CoreResponse } from './http-types.ts';

export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** Who may call a route: a service key (§5), the control API's rules, or anyone (artifacts). */
export type RouteAccess = 'service' | 'control' | 'public';

export interface RouteDefinition<Context> {
  readonly method: RouteMethod;
  /** OpenAPI-style template: `/v1/videos/{task_id}`. */
  readonly template: string;
  /** The operation in `spec/openapi.yaml` or `spec/mock-control.yaml` this route serves. */
  readonly operationId: string;
  readonly access: RouteAccess;
  readonly handle: (context: Context, params: Readonly<Record<string, string>>) => CoreResponse;
}

export type RouteMatch<Context> =
  | {
      readonly kind: 'found';
      readonly route: RouteDefinition<Context>;
      readonly params: Readonly<Record<string, string>>;
    }
  | { readonly kind: 'method-not-allowed'; readonly allow: readonly string[] }
  | { readonly kind: 'not-found' }
  | { readonly kind: 'bad-path' };

interface Compiled<Context> {
  readonly route: RouteDefinition<Context>;
  /** Per segment: its literal text, or `undefined` where the template has a parameter. */
  readonly literals: readonly (string | undefined)[];
  /** Per segment: the parameter's name, or `undefined` where the template has a literal. */
  readonly names: readonly (string | undefined)[];
}

const NOT_FOUND = { kind: 'not-found' } as const;
const BAD_PATH = { kind: 'bad-path' } as const;

/**
 * Matches method + path against the route table. `HEAD` matches `GET` routes (HTTP semantics). Both
 * hosts route through it: the node host hands every request to the core, and the msw host asks
 * `declares` which requests are the service's before the core routes them.
 */
export class Router<Context> {
  readonly #bySegmentCount = new Map<number, Compiled<Context>[]>();
  /**
   * Where the path being matched has its slashes (`findSlashes`): one array for every match, which
   * runs to its end before the next one starts (nothing in it waits or calls out).
   */
  readonly #slashes: Int32Array;
  /**
   * The last request that found a route, and its match: a polling client asks the same path again
   * and again, and the table never changes, so the same method and path find the same route (its
   * parameters frozen: every request that asks again gets that object).
   */
  #last: { method: string; path: string; match: RouteMatch<Context> } | undefined;

  constructor(readonly routes: readonly RouteDefinition<Context>[]) {
    let most = 0;
    for (const route of routes) {
      const segments = route.template.split('/').slice(1);
      const parameter = (s: string): boolean => s.startsWith('{');
      const literals = segments.map((s) => (parameter(s) ? undefined : s));
      const names = segments.map((s) => (parameter(s) ? s.slice(1, -1) : undefined));
      const list = this.#bySegmentCount.get(segments.length) ?? [];
      list.push({ route, literals, names });
      this.#bySegmentCount.set(segments.length, list);
      most = Math.max(most, segments.length);
    }
    this.#slashes = new Int32Array(most + 1);
  }

  match(method: string, path: string): RouteMatch<Context> {
    const last = this.#last;
    if (last !== undefined && last.path === path && last.method === method) return last.match;
    const match = this.#match(method, path);
    if (match.kind === 'found') {
      Object.freeze(match.params);
      this.#last = { method, path, match };
    }
    return match;
  }

  #match(method: string, path: string): RouteMatch<Context> {
    const slashes = this.#slashes;
    const candidates = this.#bySegmentCount.get(findSlashes(path, slashes));
    if (candidates === undefined) return NOT_FOUND;
    const wanted = method === 'HEAD' ? 'GET' : method;
    let allow: string[] | undefined;
    for (const compiled of candidates) {
      if (!sameShape(compiled.literals, path, slashes)) continue;
      const { route } = compiled;
      const params = paramsOf(compiled.names, path, slashes);
      if (params === undefined) return BAD_PATH;
      if (route.method === wanted) return { kind: 'found', route, params };
      (allow ??= []).push(route.method);
    }
    if (allow === undefined) return NOT_FOUND;
    if (allow.includes('GET')) allow.push('HEAD');
    return { kind: 'method-not-allowed', allow };
  }

  /**
   * The path a route has that `path` (which none has) differs from only by the case of its literal
   * segments or by doubled or trailing slashes (`/V1/MODELS`, `/v1/models/`, `/v1//videos/{id}`):
   * what its caller most likely meant. Parameters are kept as written (task IDs are case-exact). Not
   * the hot path: asked only once a path has no route.
   */
  suggest(path: string): string | undefined {
    const segments = path.split('/').filter((segment, i) => i > 0 && segment !== '');
    const candidates = this.#bySegmentCount.get(segments.length) ?? [];
    for (const { literals } of candidates) {
      const fits = literals.every((literal, i) =>
        literal === undefined ? true : literal.toLowerCase() === segments[i]!.toLowerCase(),
      );
      if (fits) {
        const suggested = `/${segments.map((s, i) => literals[i] ?? s).join('/')}`;
        return suggested === path ? undefined : suggested;
      }
    }
    return undefined;
  }

  /**
   * Whether a route has this path (with any method, its parameters however encoded): what the msw
   * host answers, leaving every other path to the test's own handlers.
   */
  declares(path: string): boolean {
    const slashes = this.#slashes;
    const candidates = this.#bySegmentCount.get(findSlashes(path, slashes));
    return candidates !== undefined && candidates.some((c) => sameShape(c.literals, path, slashes));
  }
}

// The path is read where it lies, in one pass and without splitting it (the hot path: every request,
// both hosts). A template's segments follow its first '/'; whatever a path has before its first '/' is
// not looked at. Segment i of a path runs from slashes[i] + 1 to slashes[i + 1]: the positions of its
// slashes, then its length.

/**
 * How many segments `path` has (its slashes from the first on), with their bounds in `slashes`; for a
 * path of more segments than any template, a count no template has, found without reading further.
 */
function findSlashes(path: string, slashes: Int32Array): number {
  let count = 0;
  for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) {
    if (count === slashes.length - 1) return slashes.length;
    slashes[count++] = i;
  }
  slashes[count] = path.length;
  return count;
}

/** The path has the template's literal segments and a non-empty segment for each parameter. */
function sameShape(
  literals: readonly (string | undefined)[],
  path: string,
  slashes: Int32Array,
): boolean {
  for (let i = 0; i < literals.length; i++) {
    const literal = literals[i];
    const start = slashes[i]! + 1;
    const length = slashes[i + 1]! - start;
    const matches =
      literal === undefined
        ? length > 0
        : length === literal.length && path.startsWith(literal, start);
    if (!matches) return false;
  }
  return true;
}

/** The parameters of a path of the template's shape, decoded; `undefined` when one is badly encoded. */
function paramsOf(
  names: readonly (string | undefined)[],
  path: string,
  slashes: Int32Array,
): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    if (name === undefined) continue;
    const part = path.slice(slashes[i]! + 1, slashes[i + 1]);
    if (!part.includes('%')) params[name] = part;
    else
      try {
        params[name] = decodeURIComponent(part);
      } catch {
        return undefined;
      }
  }
  return params;
}

/**
 * `path`, which a route of `template` matched, with its parameter `name` set to `value` (encoded as a
 * path segment); the other segments as written. The path unchanged when the template has no such
 * parameter.
 */
export function withParam(template: string, path: string, name: string, value: string): string {
  const at = template.split('/').indexOf(`{${name}}`);
  if (at < 0) return path;
  const segments = path.split('/');
  segments[at] = encodeURIComponent(value);
  return segments.join('/');
}

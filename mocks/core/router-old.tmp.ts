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
      readonly params: Record<string, string>;
    }
  | { readonly kind: 'method-not-allowed'; readonly allow: readonly string[] }
  | { readonly kind: 'not-found' }
  | { readonly kind: 'bad-path' };

interface Compiled<Context> {
  readonly route: RouteDefinition<Context>;
  /** A literal segment, or a parameter name prefixed with ':' . */
  readonly segments: readonly string[];
}

/** Matches method + path against the route table. `HEAD` matches `GET` routes (HTTP semantics). */
export class Router<Context> {
  readonly #bySegmentCount = new Map<number, Compiled<Context>[]>();

  constructor(readonly routes: readonly RouteDefinition<Context>[]) {
    for (const route of routes) {
      const segments = route.template
        .split('/')
        .slice(1)
        .map((s) => (s.startsWith('{') ? `:${s.slice(1, -1)}` : s));
      const list = this.#bySegmentCount.get(segments.length) ?? [];
      list.push({ route, segments });
      this.#bySegmentCount.set(segments.length, list);
    }
  }

  match(method: string, path: string): RouteMatch<Context> {
    const parts = path.split('/');
    parts.shift();
    const candidates = this.#bySegmentCount.get(parts.length);
    if (candidates === undefined) return { kind: 'not-found' };
    const wanted = method === 'HEAD' ? 'GET' : method;
    const allow: string[] = [];
    for (const { route, segments } of candidates) {
      const params = matchSegments(segments, parts);
      if (params === undefined) continue;
      if (params === null) return { kind: 'bad-path' };
      if (route.method === wanted) return { kind: 'found', route, params };
      allow.push(route.method);
    }
    if (allow.length === 0) return { kind: 'not-found' };
    if (allow.includes('GET')) allow.push('HEAD');
    return { kind: 'method-not-allowed', allow };
  }
}

/** The parameters, `undefined` when the path does not match, `null` when a parameter is badly encoded. */
function matchSegments(
  segments: readonly string[],
  parts: readonly string[],
): Record<string, string> | undefined | null {
  let params: Record<string, string> | undefined;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const part = parts[i]!;
    if (segment.charCodeAt(0) === 58 /* ':' */) {
      if (part === '') return undefined;
      let value = part;
      if (part.includes('%')) {
        try {
          value = decodeURIComponent(part);
        } catch {
          return null;
        }
      }
      (params ??= {})[segment.slice(1)] = value;
    } else if (segment !== part) return undefined;
  }
  return params ?? {};
}

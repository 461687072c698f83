/**
 * The operations by their role (`x-role` in the specs, generated into src/generated/routes.ts): which
 * submit, which query a task and in which form, which serve content. Every such list in the house is
 * read here, never written out again (issue 36 item 1). Loads no spec: the browser client and the
 * mock's core may use it.
 */
import { OPERATIONS, type OperationId } from '../generated/routes.ts';
import type { RouteFamily, RouteForm, RouteKind, RouteRole } from './routes.ts';

type RoleOf<Id extends OperationId> = (typeof OPERATIONS)[Id] extends { readonly role: infer R }
  ? R
  : never;

/** An operation that has a role (every one a service key calls, but a `HEAD`; the artifacts). */
export type RoledOperation = {
  [Id in OperationId]: [RoleOf<Id>] extends [never] ? never : Id;
}[OperationId];

/** What to select operations by: each field one value or a list of them. */
export interface RoleFilter {
  readonly kind?: RouteKind | readonly RouteKind[];
  readonly form?: RouteForm | readonly RouteForm[];
  readonly family?: RouteFamily | readonly RouteFamily[];
}

type Wanted<V> = V extends readonly (infer E)[] ? E : V;

/** The operations a filter selects, as a type: `OperationWith<{ kind: 'submit' }>`. */
export type OperationWith<F extends RoleFilter> = {
  [Id in RoledOperation]: RoleOf<Id> extends { readonly [K in keyof F]: Wanted<F[K]> } ? Id : never;
}[RoledOperation];

const ROLES = new Map<string, RouteRole>(
  Object.entries(OPERATIONS).flatMap(([id, route]) =>
    'role' in route ? [[id, route.role as RouteRole]] : [],
  ),
);

/** An operation's role; undefined for one without (the control API, a `HEAD`). */
export const roleOf = (operationId: string): RouteRole | undefined => ROLES.get(operationId);

const matches = <V>(wanted: V | readonly V[] | undefined, value: V | undefined): boolean =>
  wanted === undefined ||
  (Array.isArray(wanted) ? (wanted as readonly V[]).includes(value as V) : wanted === value);

/**
 * The operations whose role matches every field of `filter`, in the specs' order.
 *
 * @example
 * operationsWith({ kind: 'submit', form: 'openai' }); // ['createVideoGeneration', 'createVideo']
 */
export function operationsWith<const F extends RoleFilter>(filter: F): OperationWith<F>[] {
  const selected: string[] = [];
  for (const [id, role] of ROLES)
    if (
      matches(filter.kind, role.kind) &&
      matches(filter.form, role.form) &&
      matches(filter.family, role.family)
    )
      selected.push(id);
  return selected as OperationWith<F>[];
}

/** The service's own routes (the contract matrix's, a learned profile's): every role but the artifacts. */
export const SERVICE_KINDS = ['submit', 'query', 'content', 'catalog'] as const;

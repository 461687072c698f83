import {
  HTTP_METHODS,
  type OpenApiDocument,
  type OperationObject,
  type SecurityRequirement,
} from './spec-types.ts';

/**
 * Who may call an operation: the holder of a service key (§5), whoever the control API's rules let
 * in (loopback, or the admin token), or anyone (the temporary result addresses).
 */
export type RouteAccess = 'service' | 'control' | 'public';

const ACCESS: readonly RouteAccess[] = ['service', 'control', 'public'];

/**
 * What an operation is to a client (its `x-role`): a submission, a query of a task, the task's content,
 * the model catalog, or a temporary result address.
 */
export const ROUTE_KINDS = ['submit', 'query', 'content', 'catalog', 'artifact'] as const;
export type RouteKind = (typeof ROUTE_KINDS)[number];

/** The form of a submission's or a query's task answer: OpenAI's (§2.2), the wrapper (§2.3), native (§4.5). */
export const ROUTE_FORMS = ['openai', 'wrapper', 'native'] as const;
export type RouteForm = (typeof ROUTE_FORMS)[number];

/** Which models an operation serves: any, or only the second family's, through its plugin (§4.5). */
export const ROUTE_FAMILIES = ['any', 'second'] as const;
export type RouteFamily = (typeof ROUTE_FAMILIES)[number];

/** An operation's `x-role`, with its section (the operation's `x-source`). */
export interface RouteRole {
  readonly kind: RouteKind;
  /** On a submission and a query only. */
  readonly form?: RouteForm;
  readonly family: RouteFamily;
  readonly section: string;
}

/** The kinds whose answer is a task in one of the forms. */
const FORMED: readonly RouteKind[] = ['submit', 'query'];

/** An operation of a spec as a route: what `npm run generate` writes to src/generated/routes.ts. */
export interface OperationRoute {
  readonly operationId: string;
  readonly method: Uppercase<(typeof HTTP_METHODS)[number]>;
  /** The spec's path template: `/v1/videos/{task_id}`. */
  readonly template: string;
  readonly access: RouteAccess;
  /** Its `x-role`; every operation a service key calls has one, but a `HEAD` (its `GET`'s role). */
  readonly role?: RouteRole;
}

/**
 * Every operation of a spec, in the spec's order, with its method, path template and access
 * (decisions/030). The access is the `x-access` of the security schemes the operation's security
 * requirement names (its own `security`, else the document's); an operation that names none
 * (`security: [{}]`, or none at all) is public. Throws naming the first operation it cannot read.
 */
export function readRoutes(document: OpenApiDocument): OperationRoute[] {
  const routes: OperationRoute[] = [];
  for (const [template, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (operation === undefined) continue;
      const where = `${method.toUpperCase()} ${template} (${operation.operationId})`;
      const access = accessOf(document, operation.security ?? document.security ?? [], where);
      const role = roleOf(operation, where);
      if (role === undefined && access === 'service' && method !== 'head')
        throw new Error(`${where}: an operation a service key calls needs x-role`);
      if (role !== undefined && method === 'head')
        throw new Error(`${where}: a HEAD operation has its GET's role; remove its x-role`);
      routes.push({
        operationId: operation.operationId,
        method: method.toUpperCase() as OperationRoute['method'],
        template,
        access,
        ...(role === undefined ? {} : { role }),
      });
    }
  }
  return routes;
}

function oneOf<T extends string>(values: readonly T[], value: unknown, where: string): T {
  if (values.includes(value as T)) return value as T;
  throw new Error(`${where} must be one of ${values.join(' | ')}, got ${JSON.stringify(value)}`);
}

/** An operation's `x-role`, checked (undefined when it has none). */
function roleOf(operation: OperationObject, where: string): RouteRole | undefined {
  const raw = (operation as { 'x-role'?: unknown })['x-role'];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'object' || raw === null)
    throw new Error(`${where}: x-role must be an object`);
  const { kind, form, family } = raw as Record<string, unknown>;
  const role = {
    kind: oneOf(ROUTE_KINDS, kind, `${where}: x-role.kind`),
    family: oneOf(ROUTE_FAMILIES, family, `${where}: x-role.family`),
    section: operation['x-source'] ?? '',
  };
  if (role.section === '') throw new Error(`${where}: an operation with x-role needs its x-source`);
  if (!FORMED.includes(role.kind)) {
    if (form !== undefined) throw new Error(`${where}: x-role.form is for submit and query only`);
    return role;
  }
  return { ...role, form: oneOf(ROUTE_FORMS, form, `${where}: x-role.form`) };
}

function accessOf(
  document: OpenApiDocument,
  requirements: readonly SecurityRequirement[],
  where: string,
): RouteAccess {
  const schemes = document.components?.securitySchemes ?? {};
  const found = new Set<RouteAccess>();
  for (const name of new Set(requirements.flatMap((r) => Object.keys(r)))) {
    const access = (schemes[name] as { 'x-access'?: unknown } | undefined)?.['x-access'];
    if (!ACCESS.includes(access as RouteAccess))
      throw new Error(
        `${where}: security scheme ${name} needs x-access (${ACCESS.join(' | ')}), ` +
          `got ${JSON.stringify(access)}`,
      );
    found.add(access as RouteAccess);
  }
  if (found.size > 1)
    throw new Error(
      `${where}: its security schemes mean different access: ${[...found].join(', ')}`,
    );
  return found.values().next().value ?? 'public';
}

/**
 * A path from a template: each `{name}` becomes its parameter, URI-encoded. Throws naming a
 * parameter the template needs and `params` lacks.
 */
export function fillTemplate(template: string, params: Readonly<Record<string, string>>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${template} needs the path parameter ${name}`);
    return encodeURIComponent(value);
  });
}

import { HTTP_METHODS, type OpenApiDocument, type SecurityRequirement } from './spec-types.ts';

/**
 * Who may call an operation: the holder of a service key (§5), whoever the control API's rules let
 * in (loopback, or the admin token), or anyone (the temporary result addresses).
 */
export type RouteAccess = 'service' | 'control' | 'public';

const ACCESS: readonly RouteAccess[] = ['service', 'control', 'public'];

/** An operation of a spec as a route: what `npm run generate` writes to src/generated/routes.ts. */
export interface OperationRoute {
  readonly operationId: string;
  readonly method: Uppercase<(typeof HTTP_METHODS)[number]>;
  /** The spec's path template: `/v1/videos/{task_id}`. */
  readonly template: string;
  readonly access: RouteAccess;
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
      routes.push({
        operationId: operation.operationId,
        method: method.toUpperCase() as OperationRoute['method'],
        template,
        access,
      });
    }
  }
  return routes;
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

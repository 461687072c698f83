/**
 * `src/generated/routes.ts`: every operation of both specs as a route (operationId → method, path
 * template, access, role), the one route table the mock, the contract matrix and the Prism review read
 * (decisions/030). Written by `npm run generate` through the reader lint-spec uses
 * (`readRoutes`, src/spec/routes.ts), so a spec lint-spec refuses is refused here too. Kept small: the
 * mock's browser bundle carries it.
 */
import {
  readRoutes,
  ROUTE_FAMILIES,
  ROUTE_FORMS,
  ROUTE_KINDS,
  type OperationRoute,
  type RouteRole,
} from '../src/spec/routes.ts';
import type { OpenApiDocument } from '../src/spec/spec-types.ts';

const quote = (value: string): string => `'${value.replace(/[\\']/g, (c) => `\\${c}`)}'`;
const WIDTH = 100;
const union = (values: readonly string[]): string => values.map(quote).join(' | ');

/** A role as an object literal: `{ kind: 'submit', form: 'openai', family: 'any', section: '§4.1' }`. */
function roleLiteral(role: RouteRole): string {
  const { kind, form, family, section } = role;
  const fields = Object.entries({ kind, form, family, section })
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}: ${quote(String(value))}`);
  return `{ ${fields.join(', ')} }`;
}

/** One entry, on one line when it fits as Prettier would leave it. */
function entry({ operationId, method, template, access, role }: OperationRoute): string[] {
  const fields = [`method: ${quote(method)}`, `template: ${quote(template)}`];
  fields.push(`access: ${quote(access)}`);
  if (role !== undefined) fields.push(`role: ${roleLiteral(role)}`);
  const line = `  ${operationId}: { ${fields.join(', ')} },`;
  if (line.length <= WIDTH) return [line];
  return [`  ${operationId}: {`, ...fields.map((field) => `    ${field},`), '  },'];
}

/** The module's text from the specs (service first), each named by its file. */
export function routesModule(
  specs: readonly { readonly yaml: string; readonly document: OpenApiDocument }[],
): string {
  const routes = specs.flatMap(({ document }) => readRoutes(document));
  const seen = new Set<string>();
  for (const { operationId } of routes) {
    if (seen.has(operationId)) throw new Error(`operationId ${operationId} is declared twice`);
    seen.add(operationId);
  }
  return [
    `// Generated from ${specs.map((s) => s.yaml).join(' and ')} by \`npm run generate\`; do not edit.`,
    '',
    'interface Route {',
    '  readonly method: string;',
    '  readonly template: string;',
    '  readonly access: string;',
    '  readonly role?: {',
    `    readonly kind: ${union(ROUTE_KINDS)};`,
    `    readonly form?: ${union(ROUTE_FORMS)};`,
    `    readonly family: ${union(ROUTE_FAMILIES)};`,
    '    readonly section: string;',
    '  };',
    '}',
    '',
    '/**',
    ' * Every operation of both specs, in their order: its method, its path template, who may call it',
    ' * (the `x-access` of the security schemes it names; decisions/030) and what it is to a client',
    ' * (its `x-role`: kind, form, family and section; read through src/spec/route-roles.ts).',
    ' */',
    'export const OPERATIONS = {',
    ...routes.flatMap(entry),
    '} as const satisfies Readonly<Record<string, Route>>;',
    '',
    'export type OperationId = keyof typeof OPERATIONS;',
    '',
  ].join('\n');
}

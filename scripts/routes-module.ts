/**
 * `src/generated/routes.ts`: every operation of both specs as a route (operationId → method, path
 * template, access), the one route table the mock, the contract matrix and the Prism review read
 * (decisions/030). Written by `npm run generate` through the reader lint-spec uses
 * (`readRoutes`, src/spec/routes.ts), so a spec lint-spec refuses is refused here too. Kept small: the
 * mock's browser bundle carries it.
 */
import { readRoutes, type OperationRoute } from '../src/spec/routes.ts';
import type { OpenApiDocument } from '../src/spec/spec-types.ts';

const quote = (value: string): string => `'${value.replace(/[\\']/g, (c) => `\\${c}`)}'`;
const WIDTH = 100;

/** One entry, on one line when it fits as Prettier would leave it. */
function entry({ operationId, method, template, access }: OperationRoute): string[] {
  const fields = [`method: ${quote(method)}`, `template: ${quote(template)}`];
  fields.push(`access: ${quote(access)}`);
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
    'type Route = { readonly method: string; readonly template: string; readonly access: string };',
    '',
    '/**',
    ' * Every operation of both specs, in their order: its method, its path template and who may call it',
    ' * (the `x-access` of the security schemes it names; decisions/030).',
    ' */',
    'export const OPERATIONS = {',
    ...routes.flatMap(entry),
    '} as const satisfies Readonly<Record<string, Route>>;',
    '',
    'export type OperationId = keyof typeof OPERATIONS;',
    '',
  ].join('\n');
}

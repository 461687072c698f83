/**
 * `src/generated/client-contract.ts`: what the typed client reads of the spec, as a few lines of
 * TypeScript, so that the package's root export (the browser client) loads neither the spec's JSON
 * nor its validator (decisions/026-lean-client.md). Written by `npm run generate` from the service
 * spec, read through the same readers the mock and the contract suites use, so a spec those refuse
 * is refused here too.
 */
import { readErrorCodes } from '../src/spec/error-codes.ts';
import { readLifecycle } from '../src/spec/lifecycle.ts';
import { readPolling } from '../src/spec/polling.ts';
import type { OpenApiDocument } from '../src/spec/spec-types.ts';

const list = (values: readonly string[]): string => `[${values.map(quote).join(', ')}]`;
const quote = (value: string): string => `'${value.replace(/[\\']/g, (c) => `\\${c}`)}'`;

/** The client request-ID header the spec declares (`components.parameters.ClientRequestId`, §7, §8). */
function clientRequestIdHeader(document: OpenApiDocument): string {
  const parameters = (document.components?.['parameters'] ?? {}) as Record<string, unknown>;
  const parameter = parameters['ClientRequestId'] as { name?: unknown; in?: unknown } | undefined;
  if (typeof parameter?.name !== 'string' || parameter.in !== 'header')
    throw new Error('components.parameters.ClientRequestId must be a header parameter');
  return parameter.name;
}

/** The module's text, formatted as Prettier would leave it. */
export function clientContractModule(document: OpenApiDocument, source: string): string {
  const lifecycle = readLifecycle(document);
  const polling = readPolling(document);
  const codes = [...new Set(readErrorCodes(document).map((row) => row.code))]
    .filter((code) => code !== '')
    .sort();
  return [
    `// Generated from ${source} by \`npm run generate\`; do not edit.`,
    "import type { components } from './openapi.ts';",
    '',
    "type VideoStatus = components['schemas']['VideoStatus'];",
    '',
    '/**',
    ' * `x-lifecycle` (§3): every status in the order a task passes them, the ones a polling loop stops on,',
    ' * polls again, treats as final (an assumption), and the ones that slow it down.',
    ' */',
    'export const LIFECYCLE = {',
    `  states: ${list(lifecycle.states.values)},`,
    `  stopPolling: ${list(lifecycle.stopPolling.values)},`,
    `  pollAgain: ${list(lifecycle.pollAgain.values)},`,
    `  terminal: ${list(lifecycle.terminal.values)},`,
    `  slowDown: ${list(lifecycle.slowDown.values)},`,
    '} as const satisfies Readonly<Record<string, readonly VideoStatus[]>>;',
    '',
    '/** `x-polling` (§8): the loop the document recommends to clients (not enforced by the server). */',
    'export const POLLING = {',
    `  initialIntervalMs: ${polling.initialIntervalMs},`,
    `  factor: ${polling.factor},`,
    `  maxIntervalMs: ${polling.maxIntervalMs},`,
    `  maxAttempts: ${polling.maxAttempts},`,
    '} as const;',
    '',
    '/** Every error code of `x-error-codes` (§7: "not shown", so each one is an assumption). */',
    'export type ErrorCode =',
    ...codes.map((code, i) => `  | ${quote(code)}${i === codes.length - 1 ? ';' : ''}`),
    '',
    "/** The header of the client's own request ID on a submission (`ClientRequestId`, §7, §8). */",
    `export const CLIENT_REQUEST_ID_HEADER = ${quote(clientRequestIdHeader(document))};`,
    '',
  ].join('\n');
}

import { readFileSync } from 'node:fs';

/** The package root: one folder up from contracts/ in the sources, two up from dist/contracts/. */
const PACKAGE_JSON = new URL(
  import.meta.url.endsWith('.ts') ? '../package.json' : '../../package.json',
  import.meta.url,
);

/** The tool that wrote a report or a HAR: this package and its version. */
export const TOOL: { readonly name: string; readonly version: string } = {
  name: 'videotask',
  version: (JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version: string }).version,
};

/**
 * The version of the JSON report's shape, described by `spec/contract-report.schema.json`: a field
 * added raises the minor, a field removed or changed in meaning the major.
 */
export const REPORT_SCHEMA_VERSION = '2.0.0';

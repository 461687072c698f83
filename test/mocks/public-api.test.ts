import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as node from '../../mocks/index.ts';
import * as neutral from '../../mocks/neutral.ts';
// Every type docs/mock.md names: the type check fails when one of them is no longer exported.
import type {
  CatalogModel,
  ClientAssertionOptions,
  ClientLimits,
  ClientReport,
  ClientVerdict,
  ClientVerdictOptions,
  ClientVerdicts,
  Clock,
  ClockOptions,
  CoreRequest,
  CoreResponse,
  HandlerOptions,
  LearnedProfile,
  MockOptions,
  MockServerOptions,
  MockService,
  MockToken,
  Observation,
  PersistedState,
  Persistence,
  ProfileOption,
  RunningMockServer,
  ServiceWrapper,
  WrapContext,
} from '../../mocks/index.ts';

// Issue 36 item 4: `videotask/mocks` exported the core's internals (the task store, the plan, the
// HMAC, the shared state's operations…) beside what docs/mock.md documents. It exports what the
// table "The API in code" lists, and nothing else.
type Documented = [
  CatalogModel,
  ClientAssertionOptions,
  ClientLimits,
  ClientReport,
  ClientVerdict,
  ClientVerdictOptions,
  ClientVerdicts,
  Clock,
  ClockOptions,
  CoreRequest,
  CoreResponse,
  HandlerOptions,
  LearnedProfile,
  MockOptions,
  MockServerOptions,
  MockService,
  MockToken,
  Observation,
  PersistedState,
  Persistence,
  ProfileOption,
  RunningMockServer,
  ServiceWrapper,
  WrapContext,
];

/** The names of the docs' table, and those marked ⬡ (the Node entry's only). */
function documented(): { all: string[]; nodeOnly: string[] } {
  const text = readFileSync(new URL('../../docs/mock.md', import.meta.url), 'utf8');
  const table = text.split('## The API in code')[1]!.split('\n## ')[0]!;
  const all: string[] = [];
  const nodeOnly: string[] = [];
  for (const row of table.split('\n').filter((line) => line.startsWith('| `'))) {
    const cell = row.split(' | ')[0]!;
    for (const [, name, mark] of cell.matchAll(/`([A-Za-z_]+)[^`]*`( ⬡)?/g)) {
      all.push(name!);
      if (mark !== undefined) nodeOnly.push(name!);
    }
  }
  return { all, nodeOnly };
}

/** The types of the table (each imported above as a type, so each is exported). */
const TYPE_NAMES = [
  'CatalogModel',
  'ClientAssertionOptions',
  'ClientLimits',
  'ClientReport',
  'ClientVerdict',
  'ClientVerdictOptions',
  'ClientVerdicts',
  'Clock',
  'ClockOptions',
  'CoreRequest',
  'CoreResponse',
  'HandlerOptions',
  'LearnedProfile',
  'MockOptions',
  'MockServerOptions',
  'MockService',
  'MockToken',
  'Observation',
  'PersistedState',
  'Persistence',
  'ProfileOption',
  'RunningMockServer',
  'ServiceWrapper',
  'WrapContext',
] as const;
const TYPE_COUNT: Documented['length'] = TYPE_NAMES.length;

describe('videotask/mocks exports what docs/mock.md documents', () => {
  const { all, nodeOnly } = documented();
  const values = (entry: object) => Object.keys(entry);
  const sorted = (names: readonly string[]) => [...names].sort();

  it('the Node entry: the table names every value and type it exports, and nothing else', () => {
    expect(TYPE_COUNT).toBe(24);
    expect(sorted(all)).toEqual(sorted([...TYPE_NAMES, ...values(node)]));
  });

  it("the neutral entry: the same without the names marked as the Node entry's", () => {
    const neutralTypes = TYPE_NAMES.filter((name) => !nodeOnly.includes(name));
    expect(sorted(all.filter((name) => !nodeOnly.includes(name)))).toEqual(
      sorted([...neutralTypes, ...values(neutral)]),
    );
    expect(nodeOnly).toEqual(expect.arrayContaining(['startMockServer', 'StateFileError']));
  });
});

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { prepareClientReportDir, writeClientReport } from '../../cli/mock/client-report.ts';
import {
  assertNoClientViolations,
  ClientVerdictError,
  createHandlers,
  createMockService,
  type ClientReport,
  type ClientVerdict,
  type MockService,
} from '../../mocks/index.ts';
import { CLIENT_RULES } from '../../src/spec/index.ts';
import { MISBEHAVIOURS, Session } from './reference-clients.ts';
import { httpWire } from './wire.ts';

// Issue 32 item 4: every verdict reaches every reader. For every judged rule of the rule table, its
// misbehaving reference client runs against msw handlers; the `onClientViolation` callback, the
// `'error'` mode (its printed verdicts and the answers it replaced), `clientReport()`,
// `assertNoClientViolations`, `GET /__mock/client-report` and the files of `--client-report DIR` carry
// the same verdicts: each reader the same rules, violations where a reader takes only violations.

const BASE = 'http://readers.test';
const START = Date.UTC(2026, 10, 22);
const server = setupServer();
const dir = mkdtempSync(join(tmpdir(), 'videotask-readers-'));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

const JUDGED = CLIENT_RULES.filter((rule) => rule.judged);
const rulesOf = (verdicts: readonly ClientVerdict[]) => [...new Set(verdicts.map((v) => v.rule))];
const violations = (report: ClientReport) =>
  rulesOf(report.verdicts.filter((v) => v.outcome === 'violation'));

type Mode = 'callback' | 'error';

/** Runs a rule's misbehaviour against handlers in `mode`: what the host told, and the service. */
async function run(id: string, mode: Mode) {
  const m = MISBEHAVIOURS[id as keyof typeof MISBEHAVIOURS];
  const service = createMockService({
    clock: { mode: 'manual', start: START },
    seed: 'readers',
    ...m.options,
  });
  const told: ClientVerdict[] = [];
  const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  server.resetHandlers(
    ...createHandlers(service, {
      baseUrl: BASE,
      onClientViolation: mode === 'callback' ? (v) => told.push(v) : 'error',
    }),
  );
  try {
    // In 'error' mode a refused request may end the misbehaviour early: what it broke was told.
    await m.run(new Session(httpWire(BASE, m.key))).catch(() => undefined);
    const report = service.clientReport(); // settles what waits: told to the host as well
    const text = printed.mock.calls.map((call) => String(call[0])).join('\n');
    return { service, report, told, text };
  } finally {
    printed.mockRestore();
  }
}

/** The readers that do not depend on the host: the same rules as `report`. */
async function sameInEveryReport(service: MockService, report: ClientReport, id: string) {
  const rules = rulesOf(report.verdicts);
  const overHttp = (await (await fetch(`${BASE}/__mock/client-report`)).json()) as ClientReport;
  expect(rulesOf(overHttp.verdicts)).toEqual(rules);
  let thrown: unknown;
  try {
    assertNoClientViolations(service, { fail: ['violation', 'advice', 'note'] });
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ClientVerdictError);
  expect(rulesOf((thrown as ClientVerdictError).verdicts)).toEqual(rules);
  const files = join(dir, id);
  prepareClientReportDir(files);
  await writeClientReport(files, report);
  const written = JSON.parse(
    readFileSync(join(files, 'client-report.json'), 'utf8'),
  ) as ClientReport;
  expect(rulesOf(written.verdicts)).toEqual(rules);
  const summary = readFileSync(join(files, 'client-report.txt'), 'utf8');
  const junit = readFileSync(join(files, 'client-report.junit.xml'), 'utf8');
  for (const rule of rules) {
    expect(summary).toContain(` ${rule} (`);
    expect(junit).toContain(`name="${rule} (`);
  }
}

describe.each(JUDGED.map((rule) => [rule.id, rule.outcome] as const))(
  'the verdict of %s (%s)',
  (id, outcome) => {
    it('reaches the callback, clientReport(), assertNoClientViolations, the control API and the files', async () => {
      const { service, report, told } = await run(id, 'callback');
      expect(rulesOf(report.verdicts)).toEqual([id]);
      // The callback gets the violations (advice and notes change no answer and call nothing).
      expect(rulesOf(told)).toEqual(violations(report));
      // Once per request that broke it: as often as the report counts it.
      const counted = report.verdicts.filter((v) => v.outcome === 'violation');
      expect(told.length).toBe(counted.reduce((sum, v) => sum + v.count, 0));
      await sameInEveryReport(service, report, id);
    });

    it.runIf(outcome === 'violation')(
      "reaches 'error' mode, which prints it (and answers the request that broke it 400)",
      async () => {
        const { report, text } = await run(id, 'error');
        expect(violations(report)).toEqual([id]);
        expect(text).toContain(`VIOLATION ${id} (`);
      },
    );
  },
);

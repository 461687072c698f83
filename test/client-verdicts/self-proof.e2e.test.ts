import { afterAll, describe, expect, it } from 'vitest';
import { CLIENT_RULES } from '../../src/spec/index.ts';
import {
  createMockService,
  startMockServer,
  type ClientReport,
  type MockOptions,
  type RunningMockServer,
} from '../../mocks/index.ts';
import { MISBEHAVIOURS, Session, type Misbehaviour } from './reference-clients.ts';
import { CLIENT_RULE_STATEMENTS, unproven } from './statement-proof.ts';
import { coreWire, httpWire, type Wire } from './wire.ts';

// The self-proof of the client verdicts, as the contract suite's is of its checks: for every rule of
// x-client-rules the mock judges, the reference client with that one rule broken gets that verdict
// and no other, in-process and over HTTP; the reference client that keeps every rule gets none. Read
// from the statement table (spec/statements.yaml): each statement of the document a judged rule
// accounts for is proven by the reference client of every such rule it names.

const MANUAL = { clock: { mode: 'manual' as const, start: Date.UTC(2026, 10, 22) }, seed: 'proof' };
const servers: RunningMockServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

type Host = 'in-process' | 'http';

async function wireFor(host: Host, options: MockOptions = {}, key?: string): Promise<Wire> {
  const settings = { ...MANUAL, ...options };
  if (host === 'in-process') return coreWire(createMockService(settings), key);
  const server = await startMockServer({ ...settings, port: 0 });
  servers.push(server);
  return httpWire(server.url, key);
}

async function reportAfter(host: Host, m: Misbehaviour): Promise<ClientReport> {
  const wire = await wireFor(host, m.options, m.key);
  await m.run(new Session(wire));
  return wire.report();
}

const JUDGED = CLIENT_RULES.filter((rule) => rule.judged);

describe.each<Host>(['in-process', 'http'])('the client verdicts (%s)', (host) => {
  /** Rule → the rules of the verdicts its reference client earned here. */
  const earned = new Map<string, readonly string[]>();

  it('has a misbehaving reference client for every judged rule of x-client-rules', () => {
    expect(Object.keys(MISBEHAVIOURS).sort()).toEqual(JUDGED.map((r) => r.id).sort());
  });

  it.each(JUDGED.map((rule) => [rule.id, rule] as const))(
    'gives %s, and only it, to a client that breaks it alone',
    async (id, rule) => {
      const misbehaviour = MISBEHAVIOURS[id as keyof typeof MISBEHAVIOURS];
      const report = await reportAfter(host, misbehaviour);
      earned.set(id, [...new Set(report.verdicts.map((v) => v.rule))]);
      expect(
        earned.get(id),
        `${misbehaviour.does}: ${JSON.stringify(report.verdicts, null, 2)}`,
      ).toEqual([id]);
      const [verdict] = report.verdicts;
      expect(verdict).toMatchObject({
        outcome: rule.outcome,
        section: rule.section,
        advice: rule.advice,
      });
      expect(verdict!.requests.length).toBeGreaterThan(0);
      for (const request of verdict!.requests) {
        expect(request.path).toMatch(/^\//);
        expect(new Date(request.at).getTime()).toBe(request.atMs);
      }
      expect(JSON.stringify(report)).not.toMatch(/sk-mock-(alice|vip)/);
    },
  );

  it.for(CLIENT_RULE_STATEMENTS.map((entry) => [entry.statement.id, entry] as const))(
    'proves statement %s by the reference client of each judged rule it names',
    ([, entry], ctx) => {
      // A filtered run judged only some rules.
      if (entry.rules.some((rule) => !earned.has(rule))) ctx.skip();
      expect(unproven(entry, earned)).toEqual([]);
    },
  );

  it.each<[string, MockOptions]>([
    ['documented', {}],
    ['observed', { profile: 'observed' }],
    ['content by redirect', { contentRedirect: true }],
    ['a failing model', { failureRate: 1 }],
  ])('gives the client that keeps every rule no verdict (%s profile)', async (_name, options) => {
    const wire = await wireFor(host, options);
    const session = new Session(wire);
    await session.job();
    await session.job({ model: 'video-pro-v1', prompt: 'a kite [mock:unknown:40]' });
    await session.job({ model: 'video-pro-v1', prompt: 'a kite [mock:flaky]' });
    await session.job({ model: 'video-pro-v1', prompt: 'a kite [mock:fail]' });
    const report = await wire.report();
    expect(report.verdicts).toEqual([]);
    expect(report.counts.requests).toBeGreaterThan(8);
  });
});

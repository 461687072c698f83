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
import { coreWire, httpWire, type Wire } from './wire.ts';

// The self-proof of the client verdicts, as the contract suite's is of its checks: for every rule of
// x-client-rules the mock judges, the reference client with that one rule broken gets that verdict
// and no other, in-process and over HTTP; the reference client that keeps every rule gets none.

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
  it('has a misbehaving reference client for every judged rule of x-client-rules', () => {
    expect(Object.keys(MISBEHAVIOURS).sort()).toEqual(JUDGED.map((r) => r.id).sort());
  });

  it.each(JUDGED.map((rule) => [rule.id, rule] as const))(
    'gives %s, and only it, to a client that breaks it alone',
    async (id, rule) => {
      const misbehaviour = MISBEHAVIOURS[id as keyof typeof MISBEHAVIOURS];
      const report = await reportAfter(host, misbehaviour);
      expect(
        [...new Set(report.verdicts.map((v) => v.rule))],
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

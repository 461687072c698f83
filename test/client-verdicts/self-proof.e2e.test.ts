import { afterAll, describe, expect, it } from 'vitest';
import { CLIENT_RULES } from '../../src/spec/index.ts';
import {
  createMockService,
  startMockServer,
  type ClientReport,
  type MockOptions,
  type RunningMockServer,
} from '../../mocks/index.ts';
import {
  KITE,
  MISBEHAVIOURS,
  Session,
  withReference,
  type Misbehaviour,
} from './reference-clients.ts';
import { CLIENT_RULE_STATEMENTS, unproven } from './statement-proof.ts';
import { coreWire, httpWire, type Wire } from './wire.ts';

// The self-proof of the client verdicts, as the contract suite's is of its checks: for every rule of
// x-client-rules the mock judges, the reference client with that one rule broken gets that verdict
// and no other; the reference client that keeps every rule gets none. On every clock a client team
// runs the mock on (issue 32 item 2): the manual clock, and a real one at --speed 1, 10 and 100
// (`npm start`'s), in-process; over HTTP on the manual clock (over HTTP a real clock at --speed 100
// would judge the time each request takes on a busy machine a hundredfold). Read from the
// statement table (spec/statements.yaml): each statement of the document a judged rule accounts for
// is proven by the reference client of every such rule it names.

const START = Date.UTC(2026, 10, 22);
const CLOCKS = {
  manual: { mode: 'manual', start: START },
  'speed 1': { speed: 1, start: START },
  'speed 10': { speed: 10, start: START },
  'speed 100': { speed: 100, start: START },
} as const satisfies Record<string, MockOptions['clock']>;
type ClockName = keyof typeof CLOCKS;
type Host = 'in-process' | 'http';

const RUNS: readonly [Host, ClockName][] = [
  ['in-process', 'manual'],
  ['in-process', 'speed 1'],
  ['in-process', 'speed 10'],
  ['in-process', 'speed 100'],
  ['http', 'manual'],
];

const servers: RunningMockServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

async function wireFor(
  host: Host,
  clock: ClockName,
  options: MockOptions = {},
  key?: string,
): Promise<Wire> {
  const settings = { clock: CLOCKS[clock], seed: 'proof', ...options };
  if (host === 'in-process') return coreWire(createMockService(settings), key);
  const server = await startMockServer({ ...settings, port: 0 });
  servers.push(server);
  return httpWire(server.url, key, clock === 'manual' ? 1 : CLOCKS[clock].speed);
}

async function reportAfter(host: Host, clock: ClockName, m: Misbehaviour): Promise<ClientReport> {
  const wire = await wireFor(host, clock, m.options, m.key);
  await m.run(new Session(wire));
  return wire.report();
}

const JUDGED = CLIENT_RULES.filter((rule) => rule.judged);

it('has a misbehaving reference client for every judged rule of x-client-rules', () => {
  expect(Object.keys(MISBEHAVIOURS).sort()).toEqual(JUDGED.map((r) => r.id).sort());
});

describe.each(RUNS)('the client verdicts (%s, %s clock)', (host, clock) => {
  /** Rule → the rules of the verdicts its reference client earned here. */
  const earned = new Map<string, readonly string[]>();

  it.each(JUDGED.map((rule) => [rule.id, rule] as const))(
    'gives %s, and only it, to a client that breaks it alone',
    async (id, rule) => {
      const misbehaviour = MISBEHAVIOURS[id as keyof typeof MISBEHAVIOURS];
      const report = await reportAfter(host, clock, misbehaviour);
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
    const wire = await wireFor(host, clock, options);
    const session = new Session(wire);
    await session.job();
    await session.job({ model: 'video-pro-v1', prompt: 'a kite [mock:unknown:40]' });
    await session.job({ model: 'video-pro-v1', prompt: 'a kite [mock:flaky]' });
    await session.job({ model: 'video-pro-v1', prompt: 'a kite [mock:fail]' });
    await session.job({ model: 'video-pro-v1', prompt: 'a kite [mock:slow]' });
    expect(
      (await session.submitWithBackoff({ ...KITE, prompt: 'a [mock:rate-limit]' })).status,
    ).toBe(429);
    const report = await wire.report();
    expect(report.verdicts).toEqual([]);
    expect(report.counts.requests).toBeGreaterThan(12);
  });

  it('gives the client that keeps every rule no verdict (the second family, bound)', async () => {
    const wire = await wireFor(host, clock, { familyBound: true }, 'sk-mock-vip');
    const session = new Session(wire);
    await session.job(withReference('https://images.example.com/kite.png'));
    const report = await wire.report();
    expect(report.verdicts).toEqual([]);
    expect(report.coverage.situations.find((s) => s.id === 'second-family-references')!.met).toBe(
      true,
    );
  });
});

import { describe, expect, it } from 'vitest';
import type { MockOptions } from '../../mocks/index.ts';
import { failures } from './helpers.ts';
import { FULL_MOCK, FULL_TARGET } from './support/in-process.ts';
import { driftInProcess, learnInProcess, type Side } from './support/learn-in-process.ts';
import { OWN_WAY } from './support/own-way.ts';
import { OLDER_CONTENT_ROUTE } from './support/deployments.ts';

// The loop in-process: learn a deployment (here: the mock playing one, on a virtual clock), serve the
// profile, and the mock serving it is the deployment again — drift finds no difference on the whole
// sequence, and the contract suite judges both alike, breaks of documented rules included.

const GATEWAY_HABITS = [
  'gateway-raw-upstream-body',
  'gateway-result-url-fallback',
  'gateway-timeout-sweep',
  'gateway-drops-task-id',
];

const DEPLOYMENTS: [string, MockOptions][] = [
  ['the documented profile', { tokens: FULL_MOCK.tokens }],
  ['the observed profile, every cell', FULL_MOCK],
  ['content by redirect', { ...FULL_MOCK, contentRedirect: true }],
  ['no HEAD, Range ignored (a mid-2026 gateway)', { ...FULL_MOCK, defects: [OLDER_CONTENT_ROUTE] }],
  ...OWN_WAY.map((d): [string, MockOptions] => [d.name, { ...FULL_MOCK, defects: [d] }]),
  ['all the own ways at once', { ...FULL_MOCK, defects: [...OWN_WAY] }],
  ["the gateway's breaks of documented rules", { ...FULL_MOCK, defects: GATEWAY_HABITS }],
];

const failing = (report: { results: readonly { id: string; outcome: string }[] }) =>
  report.results.filter((r) => r.outcome === 'fail').map((r) => r.id);

/** The full target with one unit more, as `videotask learn` has by default: the learning probes too. */
const TARGET = { ...FULL_TARGET, budget: FULL_TARGET.budget! + 1 };

describe('a mock serving a learned profile answers as the deployment it was learned from', () => {
  it.each(DEPLOYMENTS)('%s: no drift, and the same contract verdicts', async (_name, mock) => {
    const deployment: Side = { mock, target: TARGET };
    const learned = await learnInProcess(deployment);
    expect(learned.notes).toEqual([]);
    const replay: Side = {
      mock: { profile: learned.profile, familyBound: mock.familyBound, tokens: mock.tokens },
      target: TARGET,
    };
    const { report } = await driftInProcess(deployment, replay);
    expect(report.differences).toEqual([]);
    expect(report.ok).toBe(true);
    const again = await learnInProcess(replay, { seed: 'replay' });
    expect(failing(again.report)).toEqual(failing(learned.report));
  });

  it('reproduces a learned break of a documented rule, and the suite reports it as such', async () => {
    const learned = await learnInProcess({
      mock: { ...FULL_MOCK, defects: GATEWAY_HABITS },
      target: FULL_TARGET,
    });
    const replay = await learnInProcess({
      mock: { profile: learned.profile, familyBound: true, tokens: FULL_MOCK.tokens },
      target: FULL_TARGET,
    });
    expect(failures(replay.report).map((f) => f.split(' ')[0])).toEqual([
      'task.presence-completed',
      'task.presence-failed',
      'body.no-other-identifier',
      'wrapper.result-address',
    ]);
    expect(replay.report.ok).toBe(false);
  });
});

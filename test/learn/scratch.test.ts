import { it } from 'vitest';
import { runContract, type ContractTarget } from '../../contracts/index.ts';
import { RunObserver } from '../../contracts/learn/run-observer.ts';
import { learnProfile } from '../../contracts/learn/learn-profile.ts';
import { compareProfiles } from '../../contracts/drift/compare-profiles.ts';
import { Redactor } from '../../contracts/redaction.ts';
import { createMockService, type MockOptions } from '../../mocks/index.ts';
import { coreFetch } from '../contracts/support/core-fetch.ts';
import { VirtualClock } from '../contracts/support/virtual-clock.ts';
import { BASE_TARGET, FULL_MOCK, FULL_TARGET } from '../contracts/support/in-process.ts';
import { OWN_WAY } from '../contracts/support/own-way.ts';
import { writeFileSync } from 'node:fs';

async function observe(mock: MockOptions, target: Partial<ContractTarget>, seed = 'x') {
  const service = createMockService({ clock: { mode: 'manual', start: Date.UTC(2026, 10, 22) }, seed, ...mock });
  const clock = new VirtualClock(service.clock);
  const observer = new RunObserver();
  const t = { ...BASE_TARGET, ...target };
  const report = await runContract(t, { fetch: clock.track(coreFetch(service)), clock, onExchange: observer.record });
  const profile = learnProfile(observer.seen, { baseUrl: t.baseUrl, models: [t.model], prompts: ['videotask contract check: a red kite over a green hill', 'videotask contract check', 'videotask contract check [mock:fail]'], redactor: new Redactor([t.apiKey, t.otherApiKey]), now: new Date() });
  const fails = report.results.filter((r) => r.outcome === 'fail').map((r) => r.id);
  return { profile, report, fails };
}

it('scratch', async () => {
  const cases: [string, MockOptions, Partial<ContractTarget>][] = [
    ['doc', {}, {}],
    ['obs', FULL_MOCK, FULL_TARGET],
    ...OWN_WAY.map((d): [string, MockOptions, Partial<ContractTarget>] => [d.name, { ...FULL_MOCK, defects: [d] }, FULL_TARGET]),
    ['own-all', { ...FULL_MOCK, defects: [...OWN_WAY] }, FULL_TARGET],
    ['habits', { ...FULL_MOCK, defects: ['gateway-raw-upstream-body', 'gateway-result-url-fallback', 'gateway-timeout-sweep', 'gateway-drops-task-id'] }, FULL_TARGET],
  ];
  for (const [name, mock, target] of cases) {
    const learned = await observe(mock, target);
    writeFileSync(`/tmp/profile-${name}.json`, JSON.stringify(learned.profile, null, 2));
    let replay;
    try {
      replay = await observe({ profile: learned.profile, familyBound: mock.familyBound }, target, 'y');
    } catch (e) { console.log(name, 'REPLAY FAILED', e); continue; }
    const diffs = compareProfiles(learned.profile, replay.profile).differences;
    console.log(name, 'fails', learned.fails.join(','), '| replay fails', replay.fails.join(','), '| diffs', diffs.length);
    for (const d of diffs.slice(0, 12)) console.log('   ', d.aspect, d.cell, d.situation, d.where, '|', d.a, '|', d.b);
  }
}, 600_000);

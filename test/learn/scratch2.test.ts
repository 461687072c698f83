import { it } from 'vitest';
import { DOCUMENTED_POLL, type ContractTarget } from '../../contracts/index.ts';
import { runLearn } from '../../contracts/learn/index.ts';
import { runDrift } from '../../contracts/drift/index.ts';
import { renderDriftSummary } from '../../contracts/drift/drift-report.ts';
import { startMockServer } from '../../mocks/index.ts';
import { startDeployment, DEPLOYMENT_NAMES } from '../deployments/index.ts';
import { writeFileSync } from 'node:fs';

const POLL = { ...DOCUMENTED_POLL, initialMs: 100, maxMs: 500, timeoutMs: 60_000 };
function target(url: string, apiKey: string, otherApiKey: string, failing = 'a red kite that should fail'): ContractTarget {
  return { baseUrl: url, apiKey, otherApiKey, model: 'video-pro-v1', tier: 'lifecycle', budget: 6, strict: false, poll: POLL, requestTimeoutMs: 10_000,
    failing: { prompt: failing }, family: { model: 'alt-video-v2', plugin: 'alt-video' } };
}

it.each(DEPLOYMENT_NAMES)('%s', async (name) => {
  const d = await startDeployment(name, { speed: 20, familyBound: true, ...(name === 'problem-json' ? { submissionBudget: { tasks: 100, windowMs: 2000 } } : {}) });
  try {
    const t = target(d.url, d.keys[0]!.key, d.keys[1]!.key);
    const learned = await runLearn(t);
    writeFileSync(`/tmp/dep-${name}.json`, JSON.stringify(learned.profile, null, 2));
    console.log(name, 'learn fails', learned.report.results.filter((r) => r.outcome === 'fail').map((r) => r.id), learned.notes);
    const mock = await startMockServer({ port: 0, profile: learned.profile, familyBound: true });
    try {
      const { report } = await runDrift(t, target(mock.url, 'sk-mock-vip', 'sk-mock-bob', 'a red kite [mock:fail]'));
      console.log(renderDriftSummary(report));
    } finally { await mock.close(); }
  } finally { await d.close(); }
}, 200_000);

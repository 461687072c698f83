import { runContract, type ContractReport, type ContractTarget } from '../../contracts/index.ts';
import {
  startMockServer,
  type MockServerOptions,
  type RunningMockServer,
} from '../../mocks/index.ts';

/** A fast schedule for a mock whose clock runs 1000× (a task lives 30–70 ms). */
export const FAST_POLL = {
  initialMs: 10,
  factor: 1.5,
  maxMs: 40,
  timeoutMs: 20_000,
  maxAttempts: 60,
};

/** Runs the contract suite against a fresh mock over real HTTP; returns the report and the mock (closed). */
export async function checkMock(
  mock: MockServerOptions = {},
  target: Partial<ContractTarget> = {},
): Promise<{ report: ContractReport; server: RunningMockServer }> {
  const server = await startMockServer({ port: 0, speed: 1000, seed: 'self-proof', ...mock });
  try {
    const report = await runContract({
      baseUrl: server.url,
      apiKey: 'sk-mock-alice',
      otherApiKey: 'sk-mock-bob',
      model: 'video-pro-v1',
      tier: 'lifecycle',
      budget: 2,
      strict: false,
      poll: FAST_POLL,
      requestTimeoutMs: 5_000,
      ...target,
    });
    return { report, server };
  } finally {
    await server.close();
  }
}

/** The failing checks of a report: `id (rule)`. */
export function failures(report: ContractReport): string[] {
  return report.results
    .filter((r) => r.outcome === 'fail')
    .map((r) => `${r.id} (${r.rule ?? r.basisText}): ${r.violations[0]?.message ?? ''}`);
}

import { describe, expect, it } from 'vitest';
import {
  emptyObservation,
  type Observation,
} from '../../mocks/core/client-verdicts/observation.ts';
import { createMockService, type ClientReport } from '../../mocks/index.ts';
import { PollTimeoutError } from '../../src/client/errors.ts';
import { pollTask } from '../../src/client/poller.ts';
import { CLIENT_RULES, type VideoStatus } from '../../src/spec/index.ts';
import { mockSource } from '../client/mock-source.ts';
import { KITE, Session, idOf, recommendedWait, type PollPlan } from './reference-clients.ts';
import { coreWire } from './wire.ts';

// poll-growth (§8, advice): a polling loop whose interval does not grow. Clients that grow their
// interval in any of the ways §8 allows never get it; a flat loop gets one verdict per task, and an
// interval after `unknown` or an error answer starts the count again. All on the manual clock.

const START = Date.UTC(2026, 10, 22);
const RULE = CLIENT_RULES.find((rule) => rule.id === 'poll-growth')!;
const STUCK = { ...KITE, prompt: 'a kite [mock:stuck]' };
const growth = (report: ClientReport) => report.verdicts.filter((v) => v.rule === 'poll-growth');
const rules = (report: ClientReport) => report.verdicts.map((v) => v.rule);

function session() {
  const service = createMockService({ clock: { mode: 'manual', start: START }, seed: 'growth' });
  return { service, s: new Session(coreWire(service)) };
}

/** Polls a task that never finishes by `plan`; the verdicts it earned. */
async function pollStuck(plan: PollPlan): Promise<ClientReport> {
  const { service, s } = session();
  const id = idOf(await s.submit(STUCK));
  await s.poll(id, plan);
  return service.clientReport();
}

describe('poll-growth (§8): clients whose interval grows never get it', () => {
  it("the project's own client (pollTask, default §8 schedule) on a running, unknown and flaky task", async () => {
    for (const scenario of ['stuck', 'unknown:120', 'flaky:3', 'slow']) {
      const source = mockSource();
      const id = source.submit(scenario);
      const settings = { sleep: source.sleep, now: source.now, timeoutMs: 3_600_000 };
      await pollTask(source.getTask, id, settings).catch((error: unknown) => {
        if (!(error instanceof PollTimeoutError)) throw error;
      });
      const report = source.service.clientReport();
      expect(report.counts.requests, scenario).toBeGreaterThan(scenario === 'stuck' ? 60 : 3);
      expect(report.verdicts, scenario).toEqual([]);
    }
  });

  it('the reference loop: 5, 7.5, 11.25, 16.9, 25.3, 30 s, then 30 s to the 60th query', async () => {
    expect(rules(await pollStuck({ attempts: 60 }))).toEqual([]);
  });

  it('a loop growing +1 s a query from 5 s, up to and past the ceiling', async () => {
    const report = await pollStuck({ wait: (n) => 5_000 + (n - 1) * 1_000, attempts: 40 });
    expect(rules(report)).toEqual([]);
  });

  it('a loop already at 27 s or more, or at the 30 s ceiling from the start', async () => {
    expect(rules(await pollStuck({ wait: () => 27_000, attempts: 30 }))).toEqual([]);
    expect(rules(await pollStuck({ wait: () => 30_000, attempts: 30 }))).toEqual([]);
  });

  it('a client restarted again and again, each time starting from 5 s (§8: polling survives a restart)', async () => {
    const { service, s } = session();
    const id = idOf(await s.submit(STUCK));
    for (const [attempts, downtime] of [
      [3, 1_000],
      [4, 40_000],
      [2, 0],
      [5, 3_000],
      [3, 0],
    ] as const) {
      await s.poll(id, { attempts });
      await s.wire.advance(downtime);
    }
    expect(rules(service.clientReport())).toEqual([]);
  });
});

describe('poll-growth (§8): a flat loop', () => {
  it('polling a running task every 5 s: one advice with §8 at the 7th query, not one per query', async () => {
    expect(growth(await pollStuck({ wait: () => 5_000, attempts: 6 }))).toEqual([]);
    const report = await pollStuck({ wait: () => 5_000, attempts: 7 });
    expect(rules(report)).toEqual(['poll-growth']);
    const [verdict] = growth(report);
    expect(verdict).toMatchObject({
      outcome: 'advice',
      section: '§8',
      count: 1,
      advice: RULE.advice,
    });
    expect(verdict!.message).toMatch(/did not grow/);
    expect(verdict!.requests.map((r) => r.atMs)).toEqual([START + 30_000, START + 35_000]);
  });

  it('counts a longer flat loop once more per 6 flat intervals, in the same one verdict', async () => {
    const report = await pollStuck({ wait: () => 10_000, attempts: 19 });
    expect(growth(report).map((v) => v.count)).toEqual([3]);
  });

  it('is judged per task: two flat loops, two verdicts', async () => {
    const { service, s } = session();
    const ids = [
      idOf(await s.submit(STUCK)),
      idOf(await s.submit({ ...STUCK, prompt: 'b [mock:stuck]' })),
    ];
    for (let n = 0; n < 7; n++) {
      await s.wire.advance(8_000);
      for (const id of ids) await s.wire.call('GET', `/v1/videos/${id}`);
    }
    expect(
      growth(service.clientReport())
        .map((v) => v.taskId)
        .sort(),
    ).toEqual([...ids].sort());
  });

  it('a loop that grows, then stays flat under the ceiling (a 20 s ceiling of its own)', async () => {
    const wait = (n: number, last: string | undefined) =>
      Math.min(recommendedWait(n, last), 20_000);
    expect(rules(await pollStuck({ wait, attempts: 14 }))).toEqual(['poll-growth']);
  });
});

describe('poll-growth (§8): what ends the row', () => {
  const TASK = 'task_growthrowAAAAAAAAAAAAAAAAAAAAA';

  /** Queries of one task: [interval before it in ms, what it was answered]. */
  function judge(
    steps: readonly (readonly [number, VideoStatus | number])[],
    clock: { mode: 'manual' | 'real'; speed?: number } = { mode: 'manual' },
  ): ClientReport {
    const service = createMockService({ clock: { ...clock, start: START }, seed: 'rows' });
    let at = START;
    const observations = steps.map(([interval, answer], n): Observation => {
      at += interval;
      const failed = typeof answer === 'number';
      return {
        ...emptyObservation(),
        caller: 'Bearer sk-mock-alice',
        kind: 'query',
        form: 'openai',
        method: 'GET',
        path: `/v1/videos/${TASK}`,
        at,
        order: n + 1,
        status: failed ? answer : 200,
        taskId: TASK,
        told: failed ? undefined : answer,
      };
    });
    service.clientVerdicts.judge(observations);
    return service.clientReport();
  }
  const flat = (n: number, told: VideoStatus = 'in_progress') =>
    Array.from({ length: n }, () => [6_000, told] as const);

  it('gives the advice on 6 flat intervals after queued and in_progress answers', () => {
    const report = judge([[0, 'queued'], ...flat(3, 'queued'), ...flat(3)]);
    expect(rules(report)).toEqual(['poll-growth']);
  });

  // Each row below is 5 flat intervals long on either side of the answer that ends it: one more
  // interval makes 6.
  it('starts again after an unknown answer', () => {
    const steps = [
      [0, 'in_progress'],
      ...flat(4),
      [6_000, 'unknown'],
      [12_000, 'in_progress'],
      ...flat(5),
    ] as const;
    expect(rules(judge(steps))).toEqual([]);
    expect(rules(judge([...steps, [6_000, 'in_progress']]))).toEqual(['poll-growth']);
  });

  it('starts again after an error answer (a 503, a 429)', () => {
    for (const error of [503, 429]) {
      const steps = [[0, 'in_progress'], ...flat(4), [6_000, error], ...flat(6)] as const;
      expect(rules(judge(steps)), String(error)).toEqual([]);
      expect(rules(judge([...steps, [6_000, 'in_progress']])), String(error)).toEqual([
        'poll-growth',
      ]);
    }
  });

  it('starts again after an interval under 4.5 s (poll-interval judges that one) or at 27 s or more', () => {
    const short = [[0, 'in_progress'], ...flat(4), [3_000, 'in_progress'], ...flat(5)] as const;
    expect(rules(judge(short))).toEqual(['poll-interval']);
    const long = [[0, 'in_progress'], ...flat(4), [27_000, 'in_progress'], ...flat(5)] as const;
    expect(rules(judge(long))).toEqual([]);
  });

  it('does not count an interval of 0 on the manual clock (the client may have waited in real time)', () => {
    const steps = [[0, 'in_progress'], ...flat(4), [0, 'in_progress'], ...flat(5)] as const;
    expect(rules(judge(steps))).toEqual([]);
  });

  it('never judges a +1 s loop, from any start', () => {
    for (let start = 4_500; start <= 27_000; start += 250) {
      const steps = [
        [0, 'in_progress'] as const,
        ...Array.from({ length: 30 }, (_, n) => [start + n * 1_000, 'in_progress'] as const),
      ];
      expect(rules(judge(steps)), `from ${start} ms`).toEqual([]);
    }
  });

  it('judges a flat loop with ±8 % jitter, at any base between 5 s and 24 s', () => {
    for (let base = 5_000; base <= 24_000; base += 1_000) {
      const jitter = [1.08, 0.92, 1, 0.95, 1.05, 0.93, 1.07];
      const steps = [
        [0, 'queued'] as const,
        ...jitter.map((f) => [base * f, 'in_progress'] as const),
      ];
      expect(rules(judge(steps)), `around ${base} ms`).toEqual(['poll-growth']);
    }
  });

  it("gives each interval the benefit of a fast real clock's timing noise, never a false advice", () => {
    // 5 s and 5.9 s alternating: 18 % apart, flat on a manual clock; on a clock 10 times faster
    // than real time, 25 real ms of noise are 250 mock ms, and 5.9 s may be a grown 6 s.
    const steps = [
      [0, 'in_progress'],
      ...Array.from({ length: 8 }, (_, n) => [n % 2 === 0 ? 5_000 : 5_900, 'in_progress'] as const),
    ] as const;
    expect(rules(judge(steps))).toEqual(['poll-growth']);
    expect(rules(judge(steps, { mode: 'real', speed: 10 }))).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import type { Defect } from '../../mocks/defects/defect.ts';
import { jsonOf, withJson } from '../../mocks/defects/support.ts';
import {
  chosenDeployment,
  failuresOf,
  runDeployment,
} from '../deployments/conforming/run-deployment.ts';

// Issue 31 items 2 and 6: false alarms the generated conforming deployments (test/deployments/
// conforming/) revealed. A task that never reaches an end (it outlasts the polling, or says `unknown`
// for ever), followed late in the run because its answers are slow, was polled into the run's
// deadline: the run stopped and exited 2 ("could not be checked to the end") instead of ending within
// its time and saying why. A native path (§4.5: its request shape is not shown) that refused a valid
// native task failed submission.both-paths as a break of §4.1, which covers the two OpenAI routes; one
// whose query answers hold the task in an envelope of their own (`{data: {id, …}}`) failed §1, the
// suite reading the public ID at the top-level `id` only; one whose submission answer is in such an
// envelope too failed §1 ("the native submission answer names no public task ID") and followed no
// native task (publicIdOf read the top-level `id` only).

describe('conforming deployments the suite read wrong', () => {
  // Seeds that draw delays under which the native task, followed last, was polled into the deadline.
  it.each([2, 15, 25])(
    'a task that outlasts the polling, on a deployment whose answers are slow (seed %i): exit 0, the run says why',
    async (seed) => {
      const deployment = chosenDeployment(
        {
          'task-timing': 'outlasts-polling',
          transport: 'slow-first-byte',
          'rate-limiting': 'first-look-retry-after',
          'second-family-unbound': 'bound',
        },
        { seed },
      );
      const { report, exit } = await runDeployment(deployment);
      expect({ exit: exit.code, why: exit.why, failures: failuresOf(report) }).toEqual({
        exit: 0,
        why: undefined,
        failures: [],
      });
      expect(report.stopped).toBeUndefined();
      const end = report.results.find((r) => r.id === 'sequence.reaches-end')!;
      expect(end.outcome).toBe('warn');
      expect(end.violations[0]!.message).toMatch(/the task was still \w+ after \d+ polls/);
    },
  );

  it('a native path whose query answers are in an envelope of their own: no §1 failure', async () => {
    const deployment = chosenDeployment({ 'native-shapes': 'query-wrapped' });
    const { report, exit } = await runDeployment(deployment);
    expect(failuresOf(report)).toEqual([]);
    expect(exit.code).toBe(0);
    expect(report.results.find((r) => r.id === 'native.shape')).toMatchObject({ outcome: 'warn' });
  });

  it('a native path that refuses a valid native task: no §4.1 failure, native.accepts warns', async () => {
    const deployment = chosenDeployment({
      'second-family-unbound': 'bound',
      'native-shapes': 'refuses',
    });
    const { report, exit } = await runDeployment(deployment);
    expect(failuresOf(report)).toEqual([]);
    expect(exit.code).toBe(0);
    const accepts = report.results.find((r) => r.id === 'native.accepts')!;
    expect(accepts).toMatchObject({ outcome: 'warn', basisText: 'assumption' });
    expect(accepts.violations[0]!.message).toMatch(/refused a valid task .* with HTTP 400/);
  });

  it('a native path whose every answer is in an envelope of its own: its task ID found there, followed', async () => {
    const deployment = chosenDeployment({ 'native-shapes': 'wrapped' });
    const { report, exit } = await runDeployment(deployment);
    expect(failuresOf(report)).toEqual([]);
    expect(exit.code).toBe(0);
    expect(report.results.find((r) => r.id === 'native.shape')).toMatchObject({ outcome: 'warn' });
    // The native task was followed: the owner's native queries of it were judged.
    expect(report.results.find((r) => r.id === 'native.owner-query')!.passes).toBeGreaterThan(0);
  });

  it('a native submission answer naming no task ID, in an envelope or not, still fails §1', async () => {
    const noId: Defect = {
      name: 'native-answer-without-id',
      description: 'the native submission answer names no task ID: {data: {status}}',
      breaks: ['public-id-only'],
      after: (_request, response, { operationId }) => {
        const body = operationId === 'createPluginTask' ? jsonOf(response) : undefined;
        return body === undefined ? response : withJson(response, { data: { status: 'queued' } });
      },
    };
    const deployment = chosenDeployment({ 'native-shapes': 'wrapped' });
    const { report, exit } = await runDeployment(deployment, { defects: [noId] });
    expect(exit.code).toBe(1);
    expect(failuresOf(report)).toContainEqual(
      expect.stringMatching(
        /^task\.public-id-only .*the native submission answer names no public task ID/,
      ),
    );
  });
});

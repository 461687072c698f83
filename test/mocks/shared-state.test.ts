// The shared state (decisions/010): one structure, changed only by operations, which read back from
// JSON as they were written (a state file's lines; later, messages between workers).
import { describe, expect, it } from 'vitest';
import {
  applyOperation,
  emptySharedState,
  isDurable,
  type Operation,
} from '../../mocks/core/state/shared-state.ts';
import { operationFromJson, operationToJson } from '../../mocks/core/state/shared-state-json.ts';
import { coreClient } from '../helpers/core-client.ts';

const TASK = `task_${'a'.repeat(32)}`;
const fail = (problem: string): never => {
  throw new Error(problem);
};

const OPERATIONS: Operation[] = [
  { op: 'advance', ms: 1_500 },
  {
    op: 'force',
    task: TASK,
    plan: {
      unknownMs: 0,
      queueMs: 10,
      runMs: Number.POSITIVE_INFINITY,
      outcome: 'stuck',
      scenario: 'forced:stuck',
    },
  },
  { op: 'bind', bound: true },
  { op: 'extras', task: TASK, extras: { scenario: 'fail', arg: 'MyCode', seconds: 2.5 } },
  { op: 'request-id', id: 'req-1' },
  { op: 'query', task: TASK },
  { op: 'reset', familyBound: false },
];

describe('the shared state', () => {
  it('changes only as each operation says, and a reset clears all but the clock', () => {
    const state = emptySharedState({ mode: 'manual', now: 1_000 }, false);
    for (const operation of OPERATIONS.slice(0, -1)) applyOperation(state, operation);
    applyOperation(state, { op: 'request-id', id: 'req-1' });
    expect(state.clock).toEqual({ mode: 'manual', now: 2_500 });
    expect(state.familyBound).toBe(true);
    expect(state.forced.get(TASK)?.outcome).toBe('stuck');
    expect(state.extras.get(TASK)?.arg).toBe('MyCode');
    expect(state.clientRequestIds.get('req-1')).toBe(2);
    expect(state.queries.get(TASK)).toBe(1);
    applyOperation(state, OPERATIONS.at(-1)!);
    expect(state).toMatchObject({ generation: 1, familyBound: false, clock: { now: 2_500 } });
    expect([
      state.forced.size,
      state.extras.size,
      state.queries.size,
      state.clientRequestIds.size,
    ]).toEqual([0, 0, 0, 0]);
  });

  it('reads every operation a file keeps back from its JSON, Infinity included', () => {
    for (const operation of OPERATIONS.filter((o) => o.op !== 'advance')) {
      const json = JSON.parse(JSON.stringify(operationToJson(operation))) as unknown;
      expect(operationFromJson(json, fail)).toEqual(operation);
    }
  });

  it('refuses an operation JSON naming what is wrong', () => {
    expect(() => operationFromJson({ op: 'bind', bound: 'yes' }, fail)).toThrow(
      'op.bound must be true or false',
    );
    expect(() => operationFromJson({ op: 'query', task: 'x' }, fail)).toThrow(
      'op.task must be a task ID',
    );
    expect(() => operationFromJson({ op: 'reset', familyBound: true, extra: 1 }, fail)).toThrow(
      'unknown field op.extra',
    );
    expect(() => operationFromJson({ op: 'advance', ms: 1 }, fail)).toThrow('op.op must be');
  });

  it('makes control changes and extras durable, not query counts or request IDs', () => {
    expect(OPERATIONS.filter(isDurable).map((o) => o.op)).toEqual([
      'advance',
      'force',
      'bind',
      'extras',
      'reset',
    ]);
  });

  it('is what the control API changes, through the same operations', () => {
    const { call, submit, service } = coreClient();
    const id = submit();
    call('PUT', '/__mock/family', { key: null, body: { bound: true } });
    call('POST', '/__mock/clock/advance', { key: null, body: { ms: 1_000 } });
    call('POST', `/__mock/tasks/${id}/outcome`, { key: null, body: { outcome: 'stuck' } });
    expect(service.shared.familyBound).toBe(true);
    expect(service.shared.forced.get(id)?.scenario).toBe('forced:stuck');
    service.apply({ op: 'bind', bound: false }); // what a worker would apply on a broadcast
    expect(call('GET', '/__mock/family', { key: null }).body).toMatchObject({ bound: false });
  });
});

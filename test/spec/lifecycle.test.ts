import { describe, expect, it } from 'vitest';
import {
  pluginTaskStatusValues,
  videoStatusValues,
  wrapperStatusNamedValues,
} from '../../src/generated/openapi.ts';
import {
  canTransition,
  fromWrapperStatus,
  isTerminal,
  missingFields,
  readLifecycle,
  requiredFields,
  serviceContract,
  serviceSpec,
  toWrapperStatus,
  type OpenApiDocument,
} from '../../src/spec/index.ts';

const { lifecycle } = serviceContract();

describe('x-lifecycle is consistent', () => {
  it('declares exactly the states of the status enum', () => {
    expect([...lifecycle.states.values].sort()).toEqual([...videoStatusValues].sort());
  });
  it('gives every state a row in the transition table', () => {
    for (const s of videoStatusValues) expect(lifecycle.transitions.table[s], s).toBeDefined();
  });
  it('lets terminal states lead nowhere else', () => {
    for (const t of lifecycle.terminal.values) expect(lifecycle.transitions.table[t]).toEqual([t]);
  });
  it('reaches a terminal state from every state', () => {
    for (const s of videoStatusValues) {
      const seen = new Set([s]);
      const queue = [s];
      while (queue.length > 0)
        for (const n of lifecycle.transitions.table[queue.shift()!])
          if (!seen.has(n)) {
            seen.add(n);
            queue.push(n);
          }
      expect(
        lifecycle.terminal.values.some((t) => seen.has(t)),
        s,
      ).toBe(true);
    }
  });
  it('maps every OpenAI state and the four named wrapper states, each once', () => {
    expect(lifecycle.mapping.rows.map((r) => r.openai).sort()).toEqual(
      [...videoStatusValues].sort(),
    );
    for (const w of wrapperStatusNamedValues)
      expect(fromWrapperStatus(lifecycle, w), w).toBeDefined();
    const all = lifecycle.mapping.rows.flatMap((r) => r.wrapper);
    expect(new Set(all).size).toBe(all.length);
  });
  it('maps every OpenAI state to a native-path status, and every native status back', () => {
    expect(lifecycle.pluginMapping.rows.map((r) => r.openai).sort()).toEqual(
      [...videoStatusValues].sort(),
    );
    const native = new Set(lifecycle.pluginMapping.rows.flatMap((r) => r.native));
    for (const v of pluginTaskStatusValues) expect(native.has(v), v).toBe(true);
    expect(lifecycle.pluginMapping.basis.documented).toBe(false);
  });
  it('states only what the document states (§3), and marks the rest as assumed', () => {
    expect(lifecycle.stopPolling).toEqual({
      values: ['completed', 'failed'],
      basis: { documented: true, source: '§3' },
    });
    expect(lifecycle.pollAgain.values).toEqual(['unknown', 'queued', 'in_progress']);
    expect(lifecycle.pollAgain.basis.documented).toBe(true);
    expect(lifecycle.terminal.basis.documented).toBe(false);
    expect(lifecycle.transitions.basis.documented).toBe(false);
    expect(lifecycle.mapping.rows.find((r) => r.openai === 'failed')!.basis).toEqual({
      documented: true,
      source: '§7',
    });
  });
  it('never lets a polled state (queued, in_progress) be terminal', () => {
    for (const s of lifecycle.pollAgain.values) expect(isTerminal(lifecycle, s)).toBe(false);
    expect(lifecycle.stopPolling.values.every((s) => isTerminal(lifecycle, s))).toBe(true);
  });
  it('names presence fields that exist in the task schema', () => {
    const props = (serviceSpec.components!.schemas!['VideoTask']!['properties'] ?? {}) as Record<
      string,
      { properties?: object }
    >;
    const rules = [
      lifecycle.presence.always,
      lifecycle.presence.onSubmission,
      ...Object.values(lifecycle.presence.byStatus),
    ];
    for (const field of rules.flatMap((r) => r.fields)) {
      const [head, tail] = field.split('.');
      expect(props[head!], field).toBeDefined();
      if (tail !== undefined) expect(props[head!]!.properties, field).toHaveProperty(tail);
    }
  });
  it('gives every rule an id, a description and a basis', () => {
    for (const rule of lifecycle.rules.values()) {
      expect(rule.description.length, rule.id).toBeGreaterThan(10);
      if (rule.basis.documented) expect(rule.basis.source).toMatch(/^§\d/);
    }
  });
});

describe('lifecycle helpers', () => {
  it.each([
    ['queued', 'in_progress', true],
    ['queued', 'unknown', true],
    ['in_progress', 'queued', false],
    ['completed', 'in_progress', false],
    ['failed', 'completed', false],
    ['unknown', 'completed', true],
  ] as const)('%s → %s allowed: %s', (from, to, allowed) => {
    expect(canTransition(lifecycle, from, to)).toBe(allowed);
  });
  it.each([
    ['queued', 'QUEUED'],
    ['in_progress', 'IN_PROGRESS'],
    ['completed', 'SUCCESS'],
    ['failed', 'FAILURE'],
    ['unknown', 'UNKNOWN'],
  ] as const)('shows %s as %s in the wrapper', (status, wrapper) => {
    expect(toWrapperStatus(lifecycle, status)).toBe(wrapper);
    expect(fromWrapperStatus(lifecycle, wrapper)).toBe(status);
  });
  it('reads further internal wrapper values and rejects unknown ones', () => {
    expect(fromWrapperStatus(lifecycle, 'NOT_START')).toBe('unknown');
    expect(fromWrapperStatus(lifecycle, 'SUBMITTED')).toBe('queued');
    expect(fromWrapperStatus(lifecycle, 'EXPLODED')).toBeUndefined();
  });
  it('requires completed_at and metadata.url once completed, error once failed', () => {
    const completed = requiredFields(lifecycle, 'completed', 'query').flatMap((r) => r.fields);
    expect(
      missingFields(
        {
          id: 'a',
          object: 'video',
          model: 'm',
          status: 'completed',
          progress: 100,
          task_id: 'a',
          created_at: 1,
          metadata: {},
        },
        completed,
      ),
    ).toEqual(['completed_at', 'metadata.url']);
    const failed = requiredFields(lifecycle, 'failed', 'query').flatMap((r) => r.fields);
    expect(
      missingFields(
        {
          id: 'a',
          object: 'video',
          model: 'm',
          status: 'failed',
          progress: 100,
          error: { code: 'x' },
        },
        failed,
      ),
    ).toEqual(['error.message']);
    const submission = requiredFields(lifecycle, 'queued', 'submission').flatMap((r) => r.fields);
    expect(
      missingFields(
        { id: 'a', object: 'video', model: 'm', status: 'queued', progress: 0 },
        submission,
      ),
    ).toEqual(['task_id', 'created_at']);
  });
});

/** The parts of the document's raw `x-lifecycle` that the cases below break. */
interface RawLifecycle {
  terminal: { values: string[] };
  transitions: { table: Record<string, unknown> };
  mapping: { rows: { openai: string; wrapper: string[] }[] };
  rules: { list: { id: string }[] };
}

describe('readLifecycle rejects a broken table', () => {
  const broken = (patch: (l: RawLifecycle) => void): OpenApiDocument => {
    const copy = structuredClone(serviceSpec);
    patch((copy as unknown as { 'x-lifecycle': RawLifecycle })['x-lifecycle']);
    return copy;
  };
  it.each([
    [
      'a state outside the enum',
      (l: RawLifecycle) => l.terminal.values.push('done'),
      /"done" is not a status/,
    ],
    [
      'a missing transition row',
      (l: RawLifecycle) => delete l.transitions.table['unknown'],
      /table\.unknown must be a list/,
    ],
    [
      'a mapping to an unknown state',
      (l: RawLifecycle) => l.mapping.rows.push({ openai: 'paused', wrapper: ['PAUSED'] }),
      /"paused" is not a status/,
    ],
    [
      'a duplicate rule id',
      (l: RawLifecycle) => l.rules.list.push({ id: 'owner-only' }),
      /duplicate id "owner-only"/,
    ],
  ])('%s', (_name, patch, message) => {
    expect(() => readLifecycle(broken(patch))).toThrow(message);
  });
});

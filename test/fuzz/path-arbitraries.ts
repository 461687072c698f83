// Generators for the path of a call: task references, mutated IDs, segment text, path shapes, query.
import fc from 'fast-check';
import type { IdMutation, PathShape, Segment, TaskRef } from './call-types.ts';
const taskRef: fc.Arbitrary<TaskRef> = fc.record({
  who: fc.oneof(
    { weight: 5, arbitrary: fc.constant('own' as const) },
    { weight: 3, arbitrary: fc.constant('other' as const) },
    { weight: 1, arbitrary: fc.constant('any' as const) },
    { weight: 1, arbitrary: fc.constant('missing' as const) },
  ),
  index: fc.nat(7),
});

const idMutation: fc.Arbitrary<IdMutation> = fc.oneof(
  { weight: 12, arbitrary: fc.constant('none' as const) },
  {
    weight: 4,
    arbitrary: fc.constantFrom<IdMutation>(
      'upper',
      'truncate',
      'extend',
      'encode-one',
      'encode-all',
      'broken-escape',
      'space',
      'unicode',
      'long',
      'nul',
      'dot-dot',
      'empty',
    ),
  },
);

/** Path text: escapes valid and broken, dot segments, unicode (raw and escaped), very long. */
const segmentText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    '.',
    '..',
    '%2e%2e',
    '%2F',
    '%2f..%2f',
    '%',
    '%z',
    '%zz',
    '%E0%A4%A',
    '%C0%AF',
    '%00',
    '%FF',
    '%ff%fe',
    'task_',
    'alt-video',
    'ALT-VIDEO',
    'v1',
    'videos',
    'content',
    '__mock',
    'tasks',
    'health',
    'task_%41',
    '%F0%9F%8E%A5',
    '🎥',
    'é',
    '\u0000',
    ' ',
    '%20',
    '+',
    ';',
    'a;b=c',
    '*',
    '~',
  ),
  fc.webSegment(),
  fc.string({ unit: 'grapheme', maxLength: 12 }).map(encodeURIComponent),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.string({ unit: 'binary-ascii', maxLength: 12 }),
  fc.integer({ min: 100, max: 9000 }).map((n) => 'x'.repeat(n)),
);

export function segmentFor(name: string): fc.Arbitrary<Segment> {
  const text = segmentText.map((t): Segment => ({ kind: 'text', text: t }));
  if (name === 'task_id')
    return fc.oneof(
      {
        weight: 8,
        arbitrary: fc.record({
          kind: fc.constant('task' as const),
          ref: taskRef,
          mutation: idMutation,
        }),
      },
      { weight: 2, arbitrary: text },
    );
  if (name === 'file')
    return fc.oneof(
      {
        weight: 8,
        arbitrary: fc.record({
          kind: fc.constant('artifact' as const),
          ref: taskRef,
          variant: fc.constantFrom<'valid' | 'expired' | 'forged' | 'bare' | 'no-ext'>(
            'valid',
            'valid',
            'expired',
            'forged',
            'bare',
            'no-ext',
          ),
        }),
      },
      { weight: 2, arbitrary: text },
    );
  if (name === 'plugin_name')
    return fc.oneof(
      { weight: 8, arbitrary: fc.constant<Segment>({ kind: 'text', text: 'alt-video' }) },
      { weight: 2, arbitrary: text },
    );
  return text;
}

export const pathShape: fc.Arbitrary<PathShape> = fc.oneof(
  { weight: 24, arbitrary: fc.constant('none' as const) },
  {
    weight: 3,
    arbitrary: fc.constantFrom<PathShape>(
      'trailing-slash',
      'double-slash',
      'leading-double-slash',
      'dot',
      'dot-dot',
      'upper',
      'encode-literal',
      'no-leading-slash',
      'absolute',
      'fragment',
      'backslash',
    ),
  },
);

export const queryText: fc.Arbitrary<string> = fc.oneof(
  { weight: 10, arbitrary: fc.constant('') },
  {
    weight: 4,
    arbitrary: fc.oneof(
      fc.constantFrom(
        'owner=alice',
        'owner=bob',
        'owner=',
        'owner=%zz',
        'expires=1&sig=x',
        '%',
        '&&&',
        '=',
        'a=1&a=2',
        'x=%E0%A4%A',
        '?',
        'q=🎥',
        'limit=-1',
      ),
      fc.webQueryParameters(),
      fc.string({ unit: 'binary-ascii', maxLength: 30 }),
      fc.integer({ min: 1000, max: 9000 }).map((n) => `x=${'y'.repeat(n)}`),
    ),
  },
);

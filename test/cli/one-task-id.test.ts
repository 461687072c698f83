// cli/options.ts oneTaskId: `videotask status` and `videotask download` take exactly one TASK_ID.
import { expect, it } from 'vitest';
import { oneTaskId, UsageError } from '../../cli/options.ts';

it('returns the one task ID given', () => {
  expect(oneTaskId(['video_1'], 'videotask status TASK_ID')).toBe('video_1');
});

it('refuses none or two with a usage error showing how to call the command', () => {
  for (const positionals of [[], ['video_1', 'video_2']])
    expect(() => oneTaskId(positionals, 'videotask status TASK_ID')).toThrow(
      new UsageError('give exactly one task ID: videotask status TASK_ID'),
    );
});

import type { VideoTask } from '../src/spec/index.ts';

/** One line for a person: `task_… completed 100% (model) …`. */
export function describeTask(task: VideoTask): string {
  const parts = [task.id, task.status, `${task.progress}%`, `(${task.model})`];
  if (task.status === 'completed' && task.metadata?.url)
    parts.push('→ download with `videotask download ID -o FILE`');
  if (task.status === 'failed' && task.error !== undefined)
    parts.push(`error ${task.error.code}: ${task.error.message}`);
  if (task.status === 'unknown')
    parts.push('(state not recognised: keep polling at a lower rate, §3)');
  return parts.join(' ');
}

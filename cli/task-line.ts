import { serviceContract, type VideoTask } from '../src/spec/index.ts';

/** One line for a person: `task_… completed 100% (model) …`. */
export function describeTask(task: VideoTask): string {
  const parts = [task.id, task.status, `${task.progress}%`, `(${task.model})`];
  if (task.status === 'completed' && task.metadata?.url) {
    const id = shellWord(task.id);
    parts.push(`→ download with \`videotask download ${id} -o ${shellWord(`${task.id}.mp4`)}\``);
  }
  if (task.status === 'failed' && task.error !== undefined)
    parts.push(`error ${task.error.code}: ${task.error.message}`);
  if (task.status === 'unknown')
    parts.push('(state not recognised: keep polling at a lower rate, §3)');
  return parts.join(' ');
}

/** A state polling stops at (§3: `completed`, `failed`): the command prints it as its result. */
export function isFinal(task: VideoTask): boolean {
  return serviceContract().lifecycle.stopPolling.values.includes(task.status);
}

/**
 * A task ID (or a file name made of one) as a shell word to paste into a command: as is when it is
 * made of safe characters, as the gateway's IDs are, else single-quoted.
 */
export function shellWord(text: string): string {
  return /^[\w.:@%+=,/-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * What a command prints for a person: every line through one redaction (`printOut`, `printErr`), a
 * task as one line (`describeTask`), and live progress (`ProgressLine`).
 */
import { Redactor } from '../src/redaction/redactor.ts';
import { LIFECYCLE } from '../src/generated/client-contract.ts';
import type { VideoTask } from '../src/spec/index.ts';
import { printable } from '../src/text/printable.ts';

/*
 * Text a server or a file supplied (task IDs, statuses, messages, codes) never reaches the terminal
 * with its control characters acting (issue 14 item 8), nor with a key the command holds in any form a
 * server may have echoed it (issue 24 item 2: the one redaction).
 */
let secrets: readonly string[] = [];
let redactor = new Redactor([]);

/** Every line printed from now on masks `key` (the command's API keys, as soon as it reads them). */
export function hideInOutput(key: string | undefined): void {
  if (key === undefined || secrets.includes(key)) return;
  secrets = [...secrets, key];
  redactor = new Redactor(secrets);
}

export function printOut(text: string): void {
  console.log(redactor.forTerminal(text));
}

export function printErr(text: string): void {
  console.error(redactor.forTerminal(text));
}

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

/**
 * A state polling stops at (§3: `completed`, `failed`, the spec's `x-lifecycle` as generated, so that
 * printing a task never loads the spec's validators): the command prints it as its result.
 */
export function isFinal(task: VideoTask): boolean {
  return (LIFECYCLE.stopPolling as readonly string[]).includes(task.status);
}

/**
 * A task ID (or a file name made of one) as a shell word to paste into a command: as is when it is
 * made of safe characters, as the gateway's IDs are, else single-quoted.
 */
export function shellWord(text: string): string {
  return /^[\w.:@%+=,/-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * Progress for a person: one line rewritten in place on a terminal, plain lines otherwise (logs, CI),
 * where only changes are printed. The text's own control characters are shown, never acted on
 * (it holds what a server sent: task IDs, statuses, messages).
 */
export class ProgressLine {
  readonly #tty: boolean;
  #last = '';

  constructor(readonly stream: NodeJS.WriteStream = process.stderr) {
    this.#tty = stream.isTTY === true;
  }

  update(raw: string): void {
    const text = printable(raw);
    if (text === this.#last) return;
    this.#last = text;
    if (this.#tty) this.stream.write(`\r\x1b[2K${text}`);
    else this.stream.write(`${text}\n`);
  }

  /** Ends the live line so the next output starts on a fresh line; the last state stays on screen. */
  done(): void {
    if (this.#tty && this.#last !== '') this.stream.write('\n');
    this.#last = '';
  }

  /** Erases the live line (a terminal only: plain lines are a log), for a result printed in its place. */
  clear(): void {
    if (this.#tty && this.#last !== '') this.stream.write('\r\x1b[2K');
    this.#last = '';
  }
}

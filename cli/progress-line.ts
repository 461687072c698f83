import { printable } from '../src/client/printable.ts';

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

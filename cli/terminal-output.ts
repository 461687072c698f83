import { printable } from '../src/client/printable.ts';

/**
 * The task commands' output: text a server or a file supplied (task IDs, statuses, messages, codes)
 * never reaches the terminal with its control characters acting (issue 14 item 8).
 */
export function printOut(text: string): void {
  console.log(printable(text));
}

export function printErr(text: string): void {
  console.error(printable(text));
}

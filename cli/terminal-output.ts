import { Redactor } from '../src/redaction/redactor.ts';

/**
 * The task commands' output: text a server or a file supplied (task IDs, statuses, messages, codes)
 * never reaches the terminal with its control characters acting (issue 14 item 8), nor with a key the
 * command holds in any form a server may have echoed it (issue 24 item 2: the one redaction).
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

/**
 * Text a server or a file supplied, made safe for a terminal: every control character that could move
 * the cursor, clear the screen, retitle the window or reorder the text (C0 but tab and newline, DEL, C1,
 * and the bidirectional overrides) is shown as its `\uXXXX` escape instead of acting. The escape is
 * also valid inside a JSON string, so the output of `JSON.stringify` passes through unchanged in meaning.
 *
 * @example
 * printable('task_\x1b[2J'); // 'task_\\u001b[2J'
 */
export function printable(text: string): string {
  return text.replace(UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** C0 controls except tab and newline; DEL and the C1 block; LRM/RLM, the embeddings, overrides and isolates. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

import { printable } from './client/printable.ts';

/**
 * Markdown's characters that open or close something when rendered: code spans, emphasis and
 * strike-through, links and images (`[`, `]`), raw HTML and autolinks (`<`, `>`), character references
 * (`&`), table cells (`|`), and the backslash itself. Each is escaped with a backslash, which every
 * CommonMark renderer (GitHub's among them) shows as the character alone.
 */
const MARKDOWN_SIGNIFICANT = /[\\`*_[\]<>&|~]/g;

/**
 * Text a deployment supplied (an error message, a header, a model name), made inert inside one line
 * of Markdown, a table cell included: its characters show as written and none makes a link, an image,
 * HTML, emphasis or a new cell or line. Line breaks become spaces; control characters (and the
 * bidirectional overrides) show as `\uXXXX`, as on a terminal (`printable`). A bare URL stays text
 * but a renderer that links bare URLs (GitHub's) may still link it: it shows where it points.
 *
 * @example
 * markdownText('![x](https://t.example/p.png) <img src=x>'); // '!\\[x\\](https://t.example/p.png) \\<img src=x\\>'
 */
export function markdownText(text: string): string {
  return oneLine(text).replace(MARKDOWN_SIGNIFICANT, (char) => `\\${char}`);
}

/**
 * Text a deployment supplied shown as a code span on one line (a task ID, an error code): every
 * character literal, no escape needed but the fence, which is longer than any run of backticks inside.
 * Not for table cells (GitHub splits cells at a `|` even inside code): use `markdownText` there.
 *
 * @example
 * markdownCode('task_`x`'); // '`` task_`x` ``'
 */
export function markdownCode(text: string): string {
  const flat = oneLine(text);
  let longest = 0;
  for (const run of flat.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  const pad = longest > 0 || flat.startsWith(' ') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** The text on one line (line breaks as spaces), control characters shown as `\uXXXX`. */
function oneLine(text: string): string {
  return printable(text.replace(/\r\n|[\r\n\u2028\u2029]/g, ' '));
}

import { printable } from './printable.ts';

/**
 * Markdown's characters that open or close something when rendered: code spans, emphasis and
 * strike-through, links and images (`!`, `[`, `]`), table cells (`|`), headings (`#`), and the
 * backslash itself. Each is escaped with a backslash, which every CommonMark renderer (GitHub's among
 * them) shows as the character alone. Raw HTML and character references (`<`, `>`, `&`) become
 * entities instead, which no renderer reads as markup.
 */
const MARKDOWN_SIGNIFICANT = /[\\`*_[\]|~!#]/g;
const ENTITIES: Readonly<Record<string, string>> = { '<': '&lt;', '>': '&gt;', '&': '&amp;' };

/**
 * Text a deployment supplied (an error message, a header, a model name), made inert inside one line
 * of Markdown, a table cell included: its characters show as written and none makes a link, an image,
 * HTML, emphasis, a heading or a new cell or line. Line breaks and tabs become spaces; other control
 * characters (and the bidirectional overrides) show as `\uXXXX`, as on a terminal (`printable`). Nor
 * does GitHub make a link by itself of an address in it (`https://`, `www.`, `a@b.example`): their
 * `:`, `.` and `@` are escaped too.
 *
 * @example
 * markdownText('![x](https://t.example/p.png) <img src=x>');
 * // '\\!\\[x\\](https\\://t.example/p.png) &lt;img src=x&gt;'
 */
export function markdownText(text: string): string {
  return oneLine(text)
    .replace(MARKDOWN_SIGNIFICANT, (char) => `\\${char}`)
    .replace(/[<>&]/g, (char) => ENTITIES[char]!)
    .replace(/:(?=\/\/)/g, '\\:')
    .replace(/(^|[^a-z0-9])(www)\./gi, '$1$2\\.')
    .replace(/@/g, '\\@');
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

/** The text on one line (line breaks and tabs as spaces), other control characters as `\uXXXX`. */
function oneLine(text: string): string {
  return printable(text.replace(/(?:\r\n|[\r\n\t\v\f\u2028\u2029])+/g, ' '));
}

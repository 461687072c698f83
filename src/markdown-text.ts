const ENTITIES: Readonly<Record<string, string>> = { '<': '&lt;', '>': '&gt;', '&': '&amp;' };

/**
 * Text another party supplied (a deployment's answers, a server's error message), made inert in
 * Markdown: on one line, as an inline span or a table cell, it reads as the same characters and never
 * as markup. No HTML (`<img>`, `<script>`: `<`, `>` and `&` become entities), no Markdown image, link,
 * emphasis, heading, code span or table cell break (their characters are backslash-escaped; a
 * parenthesis links nothing without a bracket), and no link GitHub
 * would make by itself of an address (`https://`, `www.`, `a@b.example`). Line breaks and other control
 * characters become spaces.
 *
 * @example
 * markdownText('![x](https://evil.example/a.png)'); // '\\!\\[x\\](https\\://evil.example/a.png)'
 */
export function markdownText(text: string): string {
  return text
    .replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ')
    .replace(/[<>&]/g, (ch) => ENTITIES[ch]!)
    .replace(/[\\`*_[\]!|~#]/g, '\\$&')
    .replace(/:(?=\/\/)/g, '\\:')
    .replace(/(^|[^a-z0-9])(www)\./gi, '$1$2\\.')
    .replace(/@/g, '\\@');
}

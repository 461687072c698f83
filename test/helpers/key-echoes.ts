/**
 * The forms in which a server may echo an API key back (issue 14 item 12, issue 24 items 2 and 3),
 * each built with Node's own encoders: never with the redaction under test.
 */
const base64 = (text: string) => Buffer.from(text).toString('base64');
const hex = (text: string) => Buffer.from(text).toString('hex');
const each = (text: string, form: (char: string) => string) => [...text].map(form).join('');
const code = (char: string) => char.codePointAt(0)!;
const wrapped = (text: string, width: number) =>
  text.replace(new RegExp(`(.{${width}})`, 'g'), '$1\n');
const inserted = (key: string, what: string) =>
  `${key.slice(0, 5)}${what}${key.slice(5, 14)}${what}${key.slice(14)}`;
const bytes = (text: string) => [...Buffer.from(text)];
/** RFC 4648 base32 (Node has none). */
function base32(text: string): string {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const bits = bytes(text)
    .map((b) => b.toString(2).padStart(8, '0'))
    .join('');
  let out = '';
  for (let i = 0; i < bits.length; i += 5)
    out += letters[parseInt(bits.slice(i, i + 5).padEnd(5, '0'), 2)];
  return out;
}

export const KEY_ECHOES: Readonly<Record<string, (key: string) => string>> = {
  'as is': (k) => k,
  'upper-cased': (k) => k.toUpperCase(),
  'lower-cased': (k) => k.toLowerCase(),
  'URL-encoded': (k) => encodeURIComponent(k),
  'every byte percent-encoded': (k) => each(k, (c) => `%${hex(c).toUpperCase()}`),
  'URL-encoded twice': (k) => encodeURIComponent(encodeURIComponent(k)),
  base64: (k) => base64(k),
  'base64 of the header, URL-safe': (k) =>
    base64(`Bearer ${k}`).replace(/\+/g, '-').replace(/\//g, '_'),
  'base64, line-wrapped': (k) => wrapped(base64(`key=${k}; scope=all`), 8),
  'base64 of UTF-16': (k) => Buffer.from(k, 'utf16le').toString('base64'),
  hex: (k) => hex(k),
  'hex, upper-case': (k) => hex(k).toUpperCase(),
  'hex, spaced': (k) => hex(k).replace(/(..)/g, '$1 ').trim(),
  'a long prefix': (k) => `${k.slice(0, 20)}…`,
  'HTML decimal entities': (k) => each(k, (c) => `&#${code(c)};`),
  'HTML hex entities': (k) => each(k, (c) => `&#x${code(c).toString(16)};`),
  'HTML named entities': (k) => k.replace(/-/g, '&hyphen;').replace(/_/g, '&lowbar;'),
  'JSON \\u-escaped': (k) => each(k, (c) => `\\u${code(c).toString(16).padStart(4, '0')}`),
  'a zero-width space inserted': (k) => inserted(k, '\u200b'),
  'a soft hyphen inserted': (k) => inserted(k, '\u00ad'),
  'a newline inserted': (k) => inserted(k, '\n'),
  fullwidth: (k) => each(k, (c) => String.fromCodePoint(code(c) + 0xfee0)),
  // Issue 33 item 6.
  "Node's Buffer as JSON": (k) => JSON.stringify(Buffer.from(k)),
  "Go's %v of []byte": (k) => `[${bytes(k).join(' ')}]`,
  "Java's Arrays.toString": (k) => `[${bytes(k).join(', ')}]`,
  base32: (k) => base32(k),
  'base64 of base64': (k) => base64(base64(k)),
  'hex of base64': (k) => hex(base64(k)),
  'base64 of hex': (k) => base64(hex(k)),
  'quoted-printable': (k) => each(k, (c) => `=${hex(c).toUpperCase()}`),
  'octal escapes': (k) => each(k, (c) => `\\${code(c).toString(8)}`),
  'CSS escapes': (k) => each(k, (c) => `\\${code(c).toString(16)} `),
  'a dash between characters': (k) => [...k].join('-'),
  'split by empty HTML tags': (k) => inserted(k, '<b></b>'),
  'split by an HTML comment': (k) => inserted(k, '<!-- -->'),
};

/** Every echo at once, one per line: the text a hostile server answers with. */
export function allEchoes(key: string): string {
  return Object.values(KEY_ECHOES)
    .map((echo) => echo(key))
    .join(' | ');
}

/**
 * What must never be found in any output: each echo as sent, and any 12 characters of the key in a
 * row, whatever the case (the redaction masks a run of 12 characters of a key or more).
 */
export function leaks(text: string, key: string): string[] {
  const lower = text.toLowerCase();
  const found = Object.entries(KEY_ECHOES)
    .filter(([, echo]) => lower.includes(echo(key).toLowerCase()))
    .map(([name]) => name);
  for (let i = 0; i + 12 <= key.length; i++)
    if (lower.includes(key.slice(i, i + 12).toLowerCase())) found.push(`key[${i}..${i + 12}]`);
  return found;
}

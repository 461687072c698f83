import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/redaction/redactor.ts';

// Issue 33 item 6: the redaction missed common byte encodings of a key: decimal byte lists (Node's
// Buffer JSON, Go's `%v`, Java's `Arrays.toString`), base32, base64 of base64, base64 of hex and hex of
// base64, quoted-printable, octal and CSS escapes, separators between characters and chunks split by
// markup that vanishes when rendered. Each reached `status`, `submit`, `monitor`, verify-family records,
// the journal, contract reports and learned profiles. For random keys and each encoding (built here,
// never with the redaction under test), the redacted text must no longer decode to 12 characters of
// the key in a row: the text is decoded back the way a reader would, at every alignment.

const bytesOf = (text: string) => [...Buffer.from(text)];
const base64 = (text: string) => Buffer.from(text).toString('base64');
const hex = (text: string) => Buffer.from(text).toString('hex');
const each = (text: string, form: (char: string) => string) => [...text].map(form).join('');
const code = (char: string) => char.charCodeAt(0);

/** RFC 4648 base32, written here (Node has none). */
function base32(text: string): string {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const byte of Buffer.from(text)) bits += byte.toString(2).padStart(8, '0');
  let out = '';
  for (let i = 0; i < bits.length; i += 5)
    out += letters[parseInt(bits.slice(i, i + 5).padEnd(5, '0'), 2)];
  return out.padEnd(Math.ceil(out.length / 8) * 8, '=');
}

/** Chunks of 3 to 7 characters of the key, joined by `glue`. */
function chunked(key: string, glue: string): string {
  const parts: string[] = [];
  for (let i = 0; i < key.length; i += 3 + (i % 5)) parts.push(key.slice(i, i + 3 + (i % 5)));
  return parts.join(glue);
}

// Decoding the redacted text back, leniently: whatever is left of an encoding is read as a reader would.

const fromCodes = (codes: number[]) =>
  String.fromCharCode(...codes.filter((c) => c > 0 && c < 0x110000));
/** Every number in the text (decimal, or hex), as a character. */
const numbersRead = (text: string, radix: 10 | 16) =>
  fromCodes(
    (text.match(radix === 10 ? /\d+/g : /(?:0x)?[0-9a-f]+/gi) ?? []).map((n) =>
      parseInt(n.replace(/^0x/i, ''), radix),
    ),
  );
/** Each run of an alphabet's characters, decoded at every alignment, all joined. */
function runsDecoded(
  text: string,
  run: RegExp,
  decode: (chars: string) => string,
  group: number,
): string {
  return (text.match(run) ?? [])
    .flatMap((chars) => Array.from({ length: group }, (_, a) => decode(chars.slice(a))))
    .join(' ');
}
const base64Read = (text: string) =>
  runsDecoded(text, /[A-Za-z0-9+/]+/g, (c) => Buffer.from(c, 'base64').toString('latin1'), 4);
const hexRead = (text: string) =>
  runsDecoded(
    text,
    /[0-9a-f]+/gi,
    (c) => Buffer.from(c.slice(0, c.length & ~1), 'hex').toString('latin1'),
    2,
  );
function base32Read(text: string): string {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const decode = (chars: string) => {
    const bits = [...chars.toUpperCase()]
      .map((c) => letters.indexOf(c).toString(2).padStart(5, '0'))
      .join('');
    return fromCodes(bits.match(/.{8}/g)?.map((b) => parseInt(b, 2)) ?? []);
  };
  return runsDecoded(text, /[A-Z2-7]+|[a-z2-7]+/g, decode, 8);
}
const escapesRead = (text: string, escape: RegExp, radix: number) =>
  text.replace(escape, (_m, digits: string) => String.fromCharCode(parseInt(digits, radix)));

/** An encoding of a key, and how a reader decodes a text that holds it. */
interface Encoding {
  readonly encode: (key: string) => string;
  readonly decode: (text: string) => string;
}

const ENCODINGS: Record<string, Encoding> = {
  "Node's Buffer as JSON": {
    encode: (k) => JSON.stringify(Buffer.from(k)),
    decode: (t) => numbersRead(t, 10),
  },
  "Go's %v of []byte": {
    encode: (k) => `[${bytesOf(k).join(' ')}]`,
    decode: (t) => numbersRead(t, 10),
  },
  "Java's Arrays.toString": {
    encode: (k) => `[${bytesOf(k).join(', ')}]`,
    decode: (t) => numbersRead(t, 10),
  },
  'a hex byte list': {
    encode: (k) =>
      `[${bytesOf(k)
        .map((b) => b.toString(16))
        .join(', ')}]`,
    decode: (t) => numbersRead(t, 16),
  },
  'C hex bytes': {
    encode: (k) =>
      bytesOf(k)
        .map((b) => `0x${b.toString(16)}`)
        .join(','),
    decode: (t) => numbersRead(t, 16),
  },
  base32: { encode: base32, decode: base32Read },
  'base32, lower case': { encode: (k) => base32(k).toLowerCase(), decode: base32Read },
  'base64 of base64': {
    encode: (k) => base64(base64(k)),
    decode: (t) => base64Read(base64Read(t)),
  },
  'base64 of hex': { encode: (k) => base64(hex(k)), decode: (t) => hexRead(base64Read(t)) },
  'hex of base64': { encode: (k) => hex(base64(k)), decode: (t) => base64Read(hexRead(t)) },
  'quoted-printable, every byte': {
    encode: (k) => each(k, (c) => `=${code(c).toString(16).toUpperCase().padStart(2, '0')}`),
    decode: (t) => escapesRead(t, /=([0-9A-F]{2})/g, 16),
  },
  'quoted-printable, soft line breaks': {
    encode: (k) => chunked(k, '=\r\n'),
    decode: (t) => t.replace(/=\r\n/g, ''),
  },
  'octal escapes': {
    encode: (k) => each(k, (c) => `\\${code(c).toString(8)}`),
    decode: (t) => escapesRead(t, /\\([0-7]{1,3})/g, 8),
  },
  'CSS escapes': {
    encode: (k) => each(k, (c) => `\\${code(c).toString(16)} `),
    decode: (t) => escapesRead(t, /\\([0-9a-f]{1,6}) ?/gi, 16),
  },
  'CSS escapes, six digits': {
    encode: (k) => each(k, (c) => `\\${code(c).toString(16).padStart(6, '0')}`),
    decode: (t) => escapesRead(t, /\\([0-9a-f]{6})/gi, 16),
  },
  'a dash between characters': {
    encode: (k) => [...k].join('-'),
    decode: (t) => t.replace(/-(.)/g, '$1'),
  },
  'a space between characters': {
    encode: (k) => [...k].join(' '),
    decode: (t) => t.replace(/ /g, ''),
  },
  'a comma and a space between characters': {
    encode: (k) => [...k].join(', '),
    decode: (t) => t.replace(/, /g, ''),
  },
  'a dot between characters': {
    encode: (k) => [...k].join('.'),
    decode: (t) => t.replace(/\./g, ''),
  },
  'empty HTML tags between chunks': {
    encode: (k) => chunked(k, '<b></b>'),
    decode: (t) => t.replace(/<[^>]*>/g, ''),
  },
  'HTML comments between chunks': {
    encode: (k) => chunked(k, '<!-- x -->'),
    decode: (t) => t.replace(/<!--.*?-->/g, ''),
  },
  'a span around each chunk': {
    encode: (k) => chunked(k, '</span><span class="k">'),
    decode: (t) => t.replace(/<[^>]*>/g, ''),
  },
  'Markdown emphasis between chunks': {
    encode: (k) => chunked(k, '**'),
    decode: (t) => t.replace(/\*/g, ''),
  },
  'terminal colour codes between chunks': {
    encode: (k) => chunked(k, '\u001b[31m'),
    decode: (t) => t.replace(/\u001b\[[\d;]*m/g, ''),
  },
  'zero-width joiners between chunks': {
    encode: (k) => chunked(k, '\u200d\u2060'),
    decode: (t) => t.replace(/[\u200d\u2060]/g, ''),
  },
};

const keyChars = fc.constantFrom(
  ...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-',
);
const keys = fc.string({ unit: keyChars, minLength: 16, maxLength: 48 }).map((k) => `sk-${k}`);
const around = fc.constantFrom('', 'echo: ', 'data=', '{"x":"', '<p>');

/** The parts of the key (12 characters, case aside) that `text` spells. */
const partsIn = (text: string, key: string) => {
  const lower = text.toLowerCase();
  const found: string[] = [];
  for (let i = 0; i + 12 <= key.length; i++)
    if (lower.includes(key.slice(i, i + 12).toLowerCase())) found.push(key.slice(i, i + 12));
  return found;
};

describe('the redaction of byte encodings of a key (issue 33 item 6)', () => {
  it.each(Object.entries(ENCODINGS))(
    'masks a key as %s: the text no longer decodes to it',
    (_name, encoding) => {
      fc.assert(
        fc.property(keys, around, (key, before) => {
          const text = `${before}${encoding.encode(key)} (end)`;
          // The encoding is one a reader decodes: before redaction the key is there.
          expect(partsIn(encoding.decode(text), key)).not.toEqual([]);
          const redacted = new Redactor([key]).redact(text);
          expect(partsIn(encoding.decode(redacted), key)).toEqual([]);
          expect(partsIn(redacted, key)).toEqual([]);
        }),
        { numRuns: 60, seed: 33_6 },
      );
    },
  );

  it('says whether a text holds a key, for callers that must never keep one', () => {
    const key = 'sk-Rq7vX2mPz9LkT4wYc8NbH3sJ';
    const redactor = new Redactor([key]);
    expect(redactor.holdsKey(`[${bytesOf(key).join(', ')}]`)).toBe(true);
    expect(redactor.holdsKey(base32(key))).toBe(true);
    expect(redactor.holdsKey('task_0123456789abcdef0123456789abcdef')).toBe(false);
    expect(new Redactor([]).holdsKey(key)).toBe(false);
  });
});

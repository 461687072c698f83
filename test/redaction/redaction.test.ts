import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maskKey, Redactor } from '../../src/redaction/redactor.ts';

const b64 = (text: string) => Buffer.from(text).toString('base64');
const urlSafe = (text: string) => text.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const hex = (c: string) => c.charCodeAt(0).toString(16).padStart(2, '0');
const each = (text: string, form: (char: string) => string) => [...text].map(form).join('');
const inserted = (key: string, what: string) =>
  `${key.slice(0, 4)}${what}${key.slice(4, 9)}${what}${key.slice(9)}`;

/** How a server may echo a key: each takes the key and the text around it (base64 encodes it all). */
const ECHOES: Record<string, (key: string, before: string, after: string) => string> = {
  'as is': (k, a, b) => a + k + b,
  'upper-cased': (k, a, b) => a + k.toUpperCase() + b,
  'lower-cased': (k, a, b) => a + k.toLowerCase() + b,
  encodeURIComponent: (k, a, b) => a + encodeURIComponent(k) + b,
  'form-encoded': (k, a, b) => a + new URLSearchParams({ k }).toString().slice(2) + b,
  'every byte percent-encoded, upper hex': (k, a, b) =>
    a + [...k].map((c) => `%${hex(c).toUpperCase()}`).join('') + b,
  'percent-encoded twice': (k, a, b) => a + encodeURIComponent(encodeURIComponent(k)) + b,
  'inside a JSON string': (k, a, b) => a + JSON.stringify(k).slice(1, -1) + b,
  'JSON \\u escapes': (k, a, b) => a + [...k].map((c) => `\\u00${hex(c)}`).join('') + b,
  'JSON, then URL-encoded': (k, a, b) => a + encodeURIComponent(JSON.stringify(k)) + b,
  base64: (k, a, b) => b64(a + k + b),
  'base64, URL-safe, unpadded': (k, a, b) => urlSafe(b64(a + k + b)),
  'base64 of the upper-cased key': (k, a, b) => b64(a + k.toUpperCase() + b),
  // Issue 24 item 3.
  hex: (k, a, b) => a + Buffer.from(k).toString('hex') + b,
  'hex, upper-case, of the text around it too': (k, a, b) =>
    Buffer.from(a + k + b)
      .toString('hex')
      .toUpperCase(),
  'a prefix of 12 characters': (k, a, b) => `${a}${k.slice(0, 12)}…${b}`,
  'base64, wrapped at 8': (k, a, b) => b64(a + k + b).replace(/(.{8})/g, '$1\n'),
  'HTML decimal entities': (k, a, b) => a + each(k, (c) => `&#${c.charCodeAt(0)};`) + b,
  'HTML hex entities, some without ;': (k, a, b) =>
    a + each(k, (c) => `&#x${hex(c)}${c < 'm' ? ';' : ''}`) + b + ';',
  'a zero-width space inserted': (k, a, b) => a + inserted(k, '\u200b') + b,
  'a soft hyphen inserted': (k, a, b) => a + inserted(k, '\u00ad') + b,
  'a newline inserted': (k, a, b) => a + inserted(k, '\r\n') + b,
  fullwidth: (k, a, b) => a + each(k, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)) + b,
  'fullwidth, percent-encoded': (k, a, b) =>
    a + encodeURIComponent(each(k, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0))) + b,
};

/** The forms a key must never be found in after redaction (compared case-insensitively). */
const FORBIDDEN = (k: string) => [
  k,
  encodeURIComponent(k),
  JSON.stringify(k).slice(1, -1),
  b64(k).replace(/=+$/, '').slice(0, -4), // the part of the key's base64 that its own bytes decide
  Buffer.from(k).toString('hex'),
  // No 12 characters of the key in a row.
  ...Array.from({ length: k.length - 11 }, (_, i) => k.slice(i, i + 12)),
];

const printableAscii = fc.string({
  unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
  minLength: 12,
  maxLength: 48,
});
const keys = fc.oneof(
  printableAscii,
  printableAscii.map((k) => `sk-${k}`),
);
const around = fc.string({ maxLength: 12 });

describe('the redaction of every contract output', () => {
  it.each(Object.entries(ECHOES))(
    'masks a key echoed %s, whatever the key and the text around it',
    (_name, echo) => {
      fc.assert(
        fc.property(keys, around, around, (key, before, after) => {
          const redacted = new Redactor([key]).redact(`seen: ${echo(key, before, after)} (end)`);
          const lower = redacted.toLowerCase();
          for (const form of FORBIDDEN(key)) expect(lower).not.toContain(form.toLowerCase());
        }),
        { numRuns: 80 },
      );
    },
  );

  it('shows the mask instead, and leaves text without a key alone', () => {
    const redactor = new Redactor(['sk-Secret+Key/9f8e7d6c5b4a']);
    expect(redactor.redact('key sk-SECRET%2bKEY%2f9f8e7d6c5b4a here')).toBe('key sk-…5b4a here');
    expect(redactor.redact('nothing secret: task_abc, 200 OK')).toBe(
      'nothing secret: task_abc, 200 OK',
    );
  });

  it('answers a text it has read before as it did the first time, beyond the texts it remembers', () => {
    // A Redactor remembers its answers for the texts it meets first (a report repeats its names).
    const redactor = new Redactor(['sk-Secret+Key/9f8e7d6c5b4a']);
    const echoed = (n: number) => `${n}: key sk-SECRET%2bKEY%2f9f8e7d6c5b4a here`;
    for (let round = 0; round < 2; round++)
      for (let n = 0; n < 30_000; n += 7)
        expect(redactor.redact(echoed(n))).toBe(`${n}: key sk-…5b4a here`);
    expect(redactor.redact('nothing secret: task_abc')).toBe('nothing secret: task_abc');
    expect(redactor.redact('nothing secret: task_abc')).toBe('nothing secret: task_abc');
  });

  it('masks bearer tokens and the user information of URLs, whoever they belong to', () => {
    const redactor = new Redactor([]);
    expect(redactor.redact('Authorization: Bearer sk-unknown-0123456789')).toBe(
      'Authorization: Bearer sk-…6789',
    );
    expect(redactor.redact('redirected to https://qa:TopSecretPw@cdn.example/v.mp4')).toBe(
      'redirected to https://…@cdn.example/v.mp4',
    );
  });

  it('keeps a report JSON-readable', () => {
    const redactor = new Redactor(['sk-Secret"Key\\9f8e7d6c']);
    const report = {
      excerpt: 'echo sk-Secret"Key\\9f8e7d6c',
      nested: [{ url: 'sk-Secret%22Key%5C9f8e7d6c' }],
    };
    expect(redactor.redactDeep(report)).toEqual({
      excerpt: 'echo sk-…7d6c',
      nested: [{ url: 'sk-…7d6c' }],
    });
  });

  it('never masks ordinary text by mistake, and masks a redacted text no further', () => {
    const key = 'sk-Rq7vX2mPz9LkT4wYc8NbH3sJ';
    const redactor = new Redactor([key, 'sk-mock-alice', 'sk-team-contract-9f8e7d6c5b4a']);
    fc.assert(
      fc.property(fc.string({ maxLength: 400, unit: 'grapheme' }), (text) => {
        fc.pre(!/bearer|:\/\//i.test(text));
        expect(redactor.redact(text)).toBe(text);
      }),
      { numRuns: 300 },
    );
    const once = redactor.redact(`a ${key} and ${Buffer.from(key).toString('base64')}`);
    expect(redactor.redact(once)).toBe(once);
    // A word a person put in a key (8 characters) is not a part long enough to mask.
    expect(redactor.redact('classname="videotask.contract"')).toBe(
      'classname="videotask.contract"',
    );
  });

  it('shows control characters as escapes on a terminal', () => {
    expect(new Redactor([]).forTerminal('task_\u001b[2J')).toBe('task_\\u001b[2J');
  });
});

describe('maskKey', () => {
  it('shows the first 3 and last 4 characters of a key of 16 or more', () => {
    expect(maskKey('sk-Rq7vX2mPz9LkT4wYc8NbH3sJ')).toBe('sk-…H3sJ');
    expect(maskKey('sk-wrong-key-0000')).toBe('sk-…0000');
  });

  it('shows less of a short key, never a bare ellipsis', () => {
    expect(maskKey('sk-mock-alice')).toBe('sk-…ce');
    expect(maskKey('sk-mock-vip')).toBe('sk-…ip');
    expect(maskKey('sk-x-1234')).toBe('***');
    expect(maskKey('')).toBe('***');
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (key) => {
        const mask = maskKey(key);
        expect(mask).not.toBe('…');
        // Most of a key stays hidden, and a mask is plain text in JSON, XML and a terminal.
        expect(mask.replace('…', '').length).toBeLessThanOrEqual(Math.max(3, key.length / 2));
        expect(mask).toMatch(/^(\*\*\*|[\w.*-]{3}…[\w.*-]{2,4})$/);
      }),
    );
  });
});

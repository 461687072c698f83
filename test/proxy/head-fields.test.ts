// Issue 34 item 1 (decisions/061): the proxy reads each head's field lines in one pass for the common
// case (proxy/head-fields.ts). What it takes and refuses must be exactly what the line-by-line rules of
// RFC 9112 §5 take and refuse (a token before the colon, no control character in the value): here the
// rules written plainly, against random heads of the bytes that matter.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readFields } from '../../proxy/head-fields.ts';
import { fuzzSeed } from '../fuzz/fuzz-support.ts';

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const CONTROL = /[^\t\x20-\x7e\x80-\xff]/;

/** The rules line by line: each field's name and value, or undefined when a line is not a field. */
function byTheRules(lines: readonly string[]): [string, string][] | undefined {
  const fields: [string, string][] = [];
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon) : '';
    const value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
    if (!TOKEN.test(name) || CONTROL.test(value)) return undefined;
    fields.push([name, value]);
  }
  return fields;
}

/** Bytes a field line is made of: letters, separators, spaces, controls, CR and LF, obs-text. */
const piece = fc.constantFrom(
  'a',
  'Z',
  '-',
  ':',
  ' ',
  '\t',
  '(',
  '@',
  '\x01',
  '\x7f',
  '\x80',
  '\xff',
  '\r',
  '\n',
  'x-y',
);
const line = fc.array(piece, { maxLength: 8 }).map((parts) => parts.join(''));
const wellFormed = fc
  .tuple(
    fc.constantFrom('Host', 'x-Tag', 'A'),
    fc.constantFrom('', ' ', '\t'),
    fc.constantFrom('v', 'a b', '\x80é', ''),
  )
  .map(([name, space, value]) => `${name}:${space}${value}${space}`);

describe('the field lines of a head, as the proxy reads them', () => {
  it('takes and refuses exactly what the line-by-line rules do, and reads the same fields', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(line, wellFormed), { maxLength: 6 }), (lines) => {
        const text = ['GET / HTTP/1.1', ...lines].join('\r\n');
        const read = readFields(text, 'GET / HTTP/1.1'.length, 'request');
        // A piece may hold CR and LF: the lines are what the text's CRLFs make of them.
        const actual = lines.length === 0 ? [] : lines.join('\r\n').split('\r\n');
        const expected = byTheRules(actual);
        if (expected === undefined) {
          expect(typeof read).toBe('string');
          return;
        }
        if (typeof read === 'string') throw new Error(`refused ${JSON.stringify(text)}: ${read}`);
        expect(read.rawHeaders).toEqual(expected.flat());
        expect(read.names).toEqual(expected.map(([name]) => name.toLowerCase()));
      }),
      { seed: fuzzSeed(), numRuns: 3000 },
    );
  });

  it('names the line at fault', () => {
    const why = (...lines: string[]) =>
      readFields(['HTTP/1.1 200 OK', ...lines].join('\r\n'), 15, 'answer');
    expect(why('X-A: 1', 'X-B : 2')).toBe(
      'a field line of the answer is not NAME: VALUE: "X-B : 2"',
    );
    expect(why('X-A: 1\x01')).toBe("the answer's X-A field holds a control character");
    expect(why('X-A: 1\nX-B: 2')).toBe("the answer's X-A field holds a control character");
  });
});

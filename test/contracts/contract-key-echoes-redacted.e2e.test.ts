import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contractRunOnEchoes } from './support/echoing-run.ts';

// Issue 14 item 12: the contract CLI masked a key only where it appeared exactly as given. A server
// that echoes it URL-encoded, upper-cased, in base64 or JSON-escaped got it into stdout, the JSON
// report and JUnit. Every output now goes through one redaction that knows those forms.
const KEY = 'sk-Secret+Key/9f8e7d6c5b4a';
const base64 = (text: string) => Buffer.from(text).toString('base64');
const unicodeEscaped = (text: string) =>
  [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
const ECHOES: Record<string, (key: string) => string> = {
  'URL-encoded': (k) => encodeURIComponent(k),
  'URL-encoded twice': (k) => encodeURIComponent(encodeURIComponent(k)),
  'URL-encoded, lower-case hex': (k) => encodeURIComponent(k).toLowerCase(),
  'upper-cased': (k) => k.toUpperCase(),
  'lower-cased': (k) => k.toLowerCase(),
  base64: (k) => base64(k),
  'base64 of the header, URL-safe': (k) =>
    base64(`Bearer ${k}`).replace(/\+/g, '-').replace(/\//g, '_'),
  'JSON \\u-escaped': (k) => unicodeEscaped(k),
};

const echoed = contractRunOnEchoes(KEY, Object.values(ECHOES));

describe('a server echoing the key in any encoding', () => {
  it('gets the run to report it, failing', () => {
    const { run } = echoed();
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/FAIL {2}unknown-task\.error/);
  });

  it.each(Object.entries(ECHOES))(
    'never sees the key %s in stdout, stderr, JSON or JUnit',
    (_name, echo) => {
      const outputs = echoed().outputs();
      for (const [where, text] of Object.entries(outputs)) {
        expect(text.toLowerCase(), where).not.toContain(echo(KEY).toLowerCase());
        expect(text, where).not.toContain(KEY);
      }
      expect(outputs.stdout).toContain('sk-…5b4a');
    },
  );

  it('writes both reports readable by their owner only', () => {
    for (const name of ['contract-report.json', 'contract-junit.xml'])
      expect(statSync(join(echoed().dir, name)).mode & 0o777, name).toBe(0o600);
  });
});

import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/redaction/redactor.ts';

/**
 * The property test of test/redaction/redaction.test.ts found a key the redaction let through: a key
 * that itself holds an escape-like part (`%00`) and a character JSON escapes (`"`), echoed inside a
 * JSON string. The reading that undid the JSON escape also decoded the key's own `%00`, so neither
 * reading spelled the key. A key is now also looked for as its own escapes decode.
 */
const ECHOES: Record<string, (key: string) => string> = {
  'as is': (key) => key,
  'inside a JSON string': (key) => JSON.stringify(key).slice(1, -1),
  'percent-encoded': (key) => encodeURIComponent(key),
  'HTML-escaped': (key) => key.replace(/&/g, '&amp;').replace(/"/g, '&quot;'),
};

describe('a key holding escape-like characters', () => {
  it.each([
    ['the counterexample', 'sk-!!%00"!!!!!!'],
    ['a percent escape and a backslash', 'sk-live%41\\bcdef0123'],
    ['an HTML entity and a quote', 'sk-a&amp;"b0123456789'],
  ])('is masked wherever it is echoed (%s)', (_name, key) => {
    const redactor = new Redactor([key]);
    for (const [how, echo] of Object.entries(ECHOES)) {
      const echoed = echo(key);
      const redacted = redactor.redact(`seen: ${echoed} (end)`);
      expect(redacted, how).not.toContain(echoed);
      expect(redacted, how).toMatch(/^seen: sk-…\S+ \(end\)$/);
    }
  });
});

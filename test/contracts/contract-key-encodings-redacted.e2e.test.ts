import { describe, expect, it } from 'vitest';
import { renderJUnit, renderSummary, runContract } from '../../contracts/index.ts';
import { Redactor } from '../../src/redaction/redactor.ts';
import { BASE_TARGET } from '../contracts/support/in-process.ts';
import { contractRunOnEchoes } from './support/echoing-run.ts';
import { KEY_ECHOES, leaks } from '../helpers/key-echoes.ts';

// Issue 24 item 3: the contract runner's redaction knew the key as is, in any case, percent- and
// JSON-escaped, and in base64; a server echoing it in hex, as a long prefix, in line-wrapped base64,
// as HTML entities, with a zero-width space, soft hyphen or newline inserted, or in fullwidth
// characters got it into stdout and both reports. The redaction now reads the text as it would be
// shown (invisible characters dropped, width and case folded, escapes and encodings decoded) and masks
// any run of 12 characters of the key or more, in one pass: linear in the text, as the timings show.
const KEY = 'sk-Rq7vX2mPz9LkT4wYc8NbH3sJ';
const echoes = Object.values(KEY_ECHOES);

const echoed = contractRunOnEchoes(KEY, echoes);

/** A deployment answering every request with `echo` first in its body (so every excerpt shows it). */
function echoing(echo: string): typeof fetch {
  return (input) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const body =
      url.pathname === '/v1/models'
        ? { object: 'list', data: [{ id: 'video-pro-v1' }, { id: echo }] }
        : { id: echo, message: `you sent ${echo}` };
    return Promise.resolve(Response.json(body));
  };
}

describe('each encoding of the key, echoed in every answer of a contract run', () => {
  it.each(Object.keys(KEY_ECHOES))(
    'is masked in the summary and both reports: %s',
    async (name) => {
      const echo = KEY_ECHOES[name]!(KEY);
      const target = { ...BASE_TARGET, apiKey: KEY, otherApiKey: undefined, tier: 'free' as const };
      const report = await runContract(target, { fetch: echoing(echo) });
      expect(report.ok).toBe(false);
      const outputs = {
        summary: renderSummary(report),
        json: JSON.stringify(report, null, 2),
        junit: renderJUnit(report),
      };
      expect(outputs.json).toContain('sk-…H3sJ');
      for (const [where, text] of Object.entries(outputs)) {
        expect(text.toLowerCase(), where).not.toContain(echo.toLowerCase());
        expect(leaks(text, KEY), where).toEqual([]);
      }
    },
  );
});

describe('the contract CLI against a server echoing the key in every encoding', () => {
  const outputs = () => echoed().outputs();

  it('reports it, failing, with the key masked', () => {
    const { run } = echoed();
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('sk-…H3sJ');
  });

  it.each(Object.keys(KEY_ECHOES))('never shows the key %s', (name) => {
    const echo = KEY_ECHOES[name]!(KEY).toLowerCase();
    for (const [where, text] of Object.entries(outputs()))
      expect(text.toLowerCase(), where).not.toContain(echo);
  });

  it('never shows 12 characters of the key in a row', () => {
    for (const [where, text] of Object.entries(outputs()))
      expect(leaks(text, KEY), where).toEqual([]);
  });
});

// Each input below makes a naive search backtrack or rescan (near-misses of the key, escapes that
// never complete, base64 and hex runs of a megabyte). Linear code needs well under a second for each;
// the bound is far above that and far below what a quadratic scan needs.
const BOUND_MS = 5_000;
const MEGABYTE = 1 << 20;
const HOSTILE: Record<string, string> = {
  'near-misses of the key': `${KEY.slice(0, 11)}x`.repeat(MEGABYTE / 12),
  'escapes that never complete': '%2%25%u00&#x&#1\\u00'.repeat(MEGABYTE / 20),
  'a megabyte of base64': Buffer.alloc(768 * 1024, 7).toString('base64'),
  'a megabyte of hex digits': 'ab'.repeat(MEGABYTE / 2),
  'invisible characters': '\u200b\u00ad\n'.repeat(MEGABYTE / 3),
  'fullwidth text': 'ｓｋ－'.repeat(MEGABYTE / 3),
  // Issue 33 item 6: the readings added then.
  'a megabyte of byte lists': `[${'115, 107, '.repeat(MEGABYTE / 10)}]`,
  'a megabyte of base32': 'MFRGGZDF'.repeat(MEGABYTE / 8),
  'a megabyte of base64 of base64': Buffer.from(
    Buffer.alloc(576 * 1024, 7).toString('base64'),
  ).toString('base64'),
  'markup never closed': '<a <!-- <b '.repeat(MEGABYTE / 11),
  'escapes of every style never completing': '\\7=4\\x=\\u{'.repeat(MEGABYTE / 12),
};

describe('the redaction of a megabyte of hostile text', () => {
  const redactor = new Redactor([KEY, 'sk-other-0123456789abcdef']);
  it.each(Object.entries(HOSTILE))('takes linear time: %s', (_name, text) => {
    const started = performance.now();
    const redacted = redactor.redact(text);
    expect(performance.now() - started).toBeLessThan(BOUND_MS);
    expect(redacted.length).toBeGreaterThan(0);
  });

  it('still masks a key hidden in the middle of it', () => {
    const text = `${HOSTILE['a megabyte of hex digits']}-${Buffer.from(KEY).toString('hex')}`;
    expect(leaks(redactor.redact(text), KEY)).toEqual([]);
    expect(redactor.redact(text)).toContain('sk-…H3sJ');
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markdownCode, markdownText } from '../../src/text/markdown-text.ts';

// Text a deployment supplied, in a Markdown record (issue 33 item 11): one line, nothing rendered.
describe('markdownText', () => {
  it('escapes every character that would open a link, an image, HTML, emphasis or a cell', () => {
    expect(markdownText('![x](u) <b>*a*_b_`c`~d~ & | \\')).toBe(
      '\\!\\[x\\](u) &lt;b&gt;\\*a\\*\\_b\\_\\`c\\`\\~d\\~ &amp; \\| \\\\',
    );
  });

  it('keeps any text on one line, each significant character escaped, controls shown', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom(...'ab `*_[]<>&|~\\!()#\n\r\u2028\u001b\u0000é'),
          maxLength: 200,
        }),
        (text) => {
          const shown = markdownText(text);
          expect(shown).not.toMatch(/[\r\n\u2028\u2029\u0000-\u0008\u001b]/);
          // No raw HTML; with escaped backslashes and entities taken out, every significant character
          // left follows a backslash.
          expect(shown).not.toMatch(/[<>]/);
          const bare = shown.replace(/\\\\/g, '').replace(/&(lt|gt|amp);/g, '');
          expect(bare).not.toMatch(/(^|[^\\])[`*_[\]&|~!#]/);
        },
      ),
    );
  });
});

describe('markdownCode', () => {
  it('fences a code span past the backticks it holds', () => {
    expect(markdownCode('task_1')).toBe('`task_1`');
    expect(markdownCode('a`b``c')).toBe('``` a`b``c ```');
    expect(markdownCode('two\nlines')).toBe('`two lines`');
  });
});

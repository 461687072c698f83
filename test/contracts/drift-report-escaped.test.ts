import { describe, expect, it } from 'vitest';
import { renderDriftMarkdown, type DriftReport } from '../../contracts/drift/index.ts';
import { markdownText } from '../../src/text/markdown-text.ts';

// Issue 33 item 11: drift-report.md wrote what the deployment answered (content types, body fields,
// header values, notes quoting its text) as Markdown, unescaped: a deployment could put an image that
// loads from its own host, a link, or HTML into the report a CI job summary or a pull request shows.

const HOSTILE = [
  '<img src=x onerror=alert(1)>',
  '![pixel](https://evil.example/p.png)',
  '[click](javascript:alert(1))',
  '<script>alert(1)</script>',
  'a | b\n# heading',
  '`code` **bold** ~~gone~~ www.evil.example mail@evil.example',
];

const side = {
  baseUrl: 'http://127.0.0.1:4010',
  key: 'sk-…ce',
  requests: 1,
  tasksCreated: 0,
  unconfirmed: 0,
  coverage: HOSTILE[0]!,
  counts: { pass: 1, fail: 0, warn: 0, skip: 0 },
};

const report: DriftReport = {
  a: side,
  b: { ...side, stopped: HOSTILE[3] },
  tier: 'free',
  startedAt: '2026-11-29T00:00:00.000Z',
  durationMs: 1,
  ok: false,
  differences: HOSTILE.map((text, i) => ({
    aspect: i % 2 === 0 ? 'body' : 'headers',
    cell: `getVideo missing owner`,
    situation: 'refused',
    where: text,
    a: text,
    b: `${text} (B)`,
    steps: [text],
  })),
  counts: { body: 3, headers: 3 },
  notes: HOSTILE,
};

describe("drift-report.md keeps the deployment's text as text", () => {
  const md = renderDriftMarkdown(report);

  it('has no HTML of the deployment, no image, no link, no line it starts', () => {
    expect(md).not.toMatch(/<img|<script/i);
    expect(md).not.toMatch(/(^|[^\\])!\[/m);
    expect(md).not.toMatch(/(^|[^\\])\]\(/m);
    expect(md).not.toMatch(/^# heading/m);
    expect(md).not.toMatch(/https:\/\//);
    expect(md).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('keeps every table row one row: a pipe in the text is escaped', () => {
    const rows = md.split('\n').filter((l) => l.startsWith('| getVideo'));
    for (const row of rows) expect(row.split(/(?<!\\)\|/).length).toBe(8);
  });
});

describe('markdownText', () => {
  it.each([
    ['<b>x</b> & y', '&lt;b&gt;x&lt;/b&gt; &amp; y'],
    ['![a](https://e.example/i.png)', '\\!\\[a\\](https\\://e.example/i.png)'],
    ['*a* _b_ `c` ~d~ #e |f|', '\\*a\\* \\_b\\_ \\`c\\` \\~d\\~ \\#e \\|f\\|'],
    ['line\none\r\ttwo', 'line one two'],
    ['see www.x.example or a@b.example', 'see www\\.x.example or a\\@b.example'],
    ['plain text/plain; charset=utf-8 (HTTP 404)', 'plain text/plain; charset=utf-8 (HTTP 404)'],
  ])('%j reads as %j', (text, escaped) => {
    expect(markdownText(text)).toBe(escaped);
  });
});

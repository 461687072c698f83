import { describe, expect, it } from 'vitest';
import { parseDriftFlags, targets } from '../../cli/commands/drift.ts';
import {
  driftReportJson,
  renderDriftMarkdown,
  renderDriftSummary,
  type DriftReport,
} from '../../contracts/drift/index.ts';
import type { LearnedProfile } from '../../src/profile/index.ts';
import { driftInProcess } from '../contracts/support/learn-in-process.ts';

// Issue 35 item 2: the drift report was right but hard to read. Staging played by the mock with two
// defects (error bodies as plain text, progress 150) against its own learned profile gave 120
// differences: one cause (text/plain errors) filled 114 near-identical lines, the notes came before
// them and the three contract-verdict lines, the most useful, came last. And side B's key showed as
// the mock's own (`sk-…ip`) although another key was passed for B: the key given was ignored.
// Differences are now grouped by cause, verdicts first, notes folded, one summary line last.

const staging = { mock: { defects: ['non-json-error', 'progress-out-of-range'] } };
const { report } = await driftInProcess(staging, { mock: {} });

describe('the drift report reads in a minute', () => {
  it('leads with the contract verdicts, then one line per cause with its places and an example', () => {
    expect(report.differences.length).toBeGreaterThan(100);
    const text = renderDriftSummary(report);
    const lines = text.split('\n');
    expect(lines.length).toBeLessThan(30);
    const verdicts = lines.findIndex((l) => l.startsWith('Contract verdicts that differ'));
    const causes = lines.findIndex((l) => l.startsWith('Other differences, by cause'));
    expect(verdicts).toBeGreaterThan(0);
    expect(causes).toBeGreaterThan(verdicts);
    expect(lines[verdicts + 1]).toMatch(
      /^ {2}task\.progress-range \(documented §2\.2\): A fail · B pass, at getVideo · in_progress · owner$/,
    );
    // The plain-text errors: one cause, read by two aspects, over every refusal of every route.
    const plain = lines.filter((l) => /content type: A text\/plain/.test(l));
    expect(plain).toHaveLength(1);
    expect(plain[0]).toMatch(
      /^ {2}1\. content type: A text\/plain.*; body \(body\): A bytes · B JSON$/,
    );
    expect(lines[lines.indexOf(plain[0]!) + 1]).toMatch(
      /^ {5}\d{2} places \(listModels \d+, .*getVideoContent \d+\), e\.g\. listModels · n\/a · \w+ · refused \[/,
    );
  });

  it('ends with one line a CI log shows: how many differences, causes and verdicts', () => {
    const last = renderDriftSummary(report).split('\n').at(-1)!;
    expect(last).toMatch(
      /^DRIFT: \d+ differences: 5 contract verdicts differ and \d+ other causes? /,
    );
    expect(last).toMatch(/ \(A alone fails task\.progress-range, /);
    expect(JSON.parse(driftReportJson(report))).toMatchObject({ summary: last });
  });

  it('folds the notes: a few lines in the terminal, all of them folded in the Markdown', () => {
    const notes = Array.from(
      { length: 20 },
      (_, i) => `getVideo · missing · owner · refused #${i}: not compared: ${'x'.repeat(300)}`,
    );
    const noisy: DriftReport = { ...report, notes };
    const text = renderDriftSummary(noisy);
    expect(text.split('\n').filter((l) => / #\d+: /.test(l))).toHaveLength(3);
    expect(text).toContain('… 17 more in drift-report.md and .json (--report-dir)');
    for (const line of text.split('\n')) expect(line.length).toBeLessThan(400);
    const md = renderDriftMarkdown(noisy);
    expect(md).toContain('<summary>Notes (20): what was not compared, and why</summary>');
    expect(md.indexOf('## Contract verdicts that differ')).toBeLessThan(md.indexOf('<summary>'));
  });
});

describe("side B's key is the key used", () => {
  const mock = {
    url: 'http://127.0.0.1:1',
    keys: { primary: 'sk-mock-vip', other: 'sk-mock-bob', tokens: [] },
    profile: {} as LearnedProfile,
  };
  const base = ['--base-url', 'http://127.0.0.1:2', '--api-key', 'sk-staging-0123456789abcdef'];

  it('with --against-profile, a key given for B is the key B is asked with', () => {
    const { values } = parseDriftFlags([...base, '--against-api-key', 'sk-mock-alice']);
    expect(targets(values, mock).b.apiKey).toBe('sk-mock-alice');
  });

  it("without one, the mock's own key, and the summary says which", () => {
    const { values } = parseDriftFlags(base);
    expect(targets(values, mock).b.apiKey).toBe('sk-mock-vip');
    expect(renderDriftSummary(report).split('\n')[0]).toMatch(
      /^drift: A \S+ \(key sk-…ce\) {2}vs {2}B \S+ \(key sk-…ce\)/,
    );
  });
});

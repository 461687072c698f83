import { expect, it } from 'vitest';
import type { Defect } from '../../mocks/defects/defect.ts';
import { failures } from '../contracts/helpers.ts';
import { checkInProcess } from '../contracts/support/in-process.ts';

// Found by the held-out problem-json deployment (decisions/022), which streams its videos chunked,
// without Content-Length: the coverage line said "1 rule(s) not judged in observed cells", a gap of
// the run, for `content-length-matches`, a rule that only applies when a length is announced (RFC
// 9112 §6.1: a chunked message has none). It belongs with the rules that apply only when the
// deployment does something it need not (Range, HEAD, a 429), and the cell says why.

const CHUNKED: Defect = {
  name: 'chunked-content',
  description: 'streams the content chunked, without Content-Length',
  breaks: [],
  after(_request, response, { operationId }) {
    if (operationId !== 'getVideoContent' || response.status >= 300) return response;
    const { 'content-length': _length, ...headers } = response.headers;
    return { ...response, headers: { ...headers, 'transfer-encoding': 'chunked' } };
  },
};

it('a download without Content-Length: content.length-matches not judged, with the reason, no gap', async () => {
  const { report } = await checkInProcess({ defects: [CHUNKED] }, { budget: 2 });
  expect(failures(report)).toEqual([]);
  expect(report.coverage.line).not.toMatch(/not judged/);
  const download = report.coverage.cells.find(
    (c) => c.route === 'getVideoContent' && c.state === 'completed' && c.caller === 'owner',
  )!;
  expect(download.observed).toBe(true);
  expect(download.unjudged).toEqual([]);
  expect(download.notJudged).toMatchObject({
    'content-length-matches': 'a download came without Content-Length (chunked)',
  });
  expect(report.results.find((r) => r.id === 'content.length-matches')).toMatchObject({
    outcome: 'skip',
    skipped: 'a download came without Content-Length (chunked) (not judged)',
  });
  expect(report.notes).toContain(
    'content: a download came without Content-Length (chunked), so content.length-matches was not judged',
  );
});

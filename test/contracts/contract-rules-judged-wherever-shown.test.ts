import { describe, expect, it } from 'vitest';
import { jsonResponse, type CoreResponse } from '../../mocks/core/http/http-types.ts';
import type { Defect, DefectContext } from '../../mocks/defects/defect.ts';
import { jsonOf, withJson } from '../../mocks/defects/support.ts';
import { upstreamTaskNumber } from '../../mocks/defects/wrapper.ts';
import { checkInProcess } from '../contracts/support/in-process.ts';

// Issue 31 item 6, "every rule judged wherever the traffic shows it": deployments written on purpose
// that break a documented rule later or elsewhere than the suite looked, and that the suite let pass.
// §1: the upstream's task number exposed under a key that does not name a task, in an array, quoted
// in a message, or in a header, was not seen (the suite read only fields named like an ID). §4.4: a
// completed task whose content is a video on the first download and a page on the next was passed
// (the second download was hashed, never judged). §1 again: an answer no rule read for its cell (a
// 429 waited out, a 5xx to a query retried) could quote the upstream's number unseen.

const upstream = (context: DefectContext) =>
  upstreamTaskNumber(context.taskId ?? 'task', context.task?.task.createdAt ?? 0);

/** The owner's OpenAI-form query of a task, rewritten by `change`. */
function onQuery(
  name: string,
  change: (response: CoreResponse, context: DefectContext) => CoreResponse,
): Defect {
  return {
    name,
    description: `${name}: exposes the upstream's task number`,
    breaks: ['public-id-only'],
    after: (_request, response, context) =>
      context.operationId === 'getVideo' && response.status === 200
        ? change(response, context)
        : response,
  };
}

const withBody =
  (extra: (context: DefectContext) => Record<string, unknown>) =>
  (response: CoreResponse, context: DefectContext) =>
    withJson(response, { ...jsonOf(response), ...extra(context) });

describe('§1: an identifier the document forbids is judged by its value, at any key and depth', () => {
  it.each([
    ['under a key that names no task', withBody((c) => ({ provider: { ref: upstream(c) } }))],
    ['as an item of an array', withBody((c) => ({ trace: ['gw', upstream(c)] }))],
    [
      'quoted in a message',
      withBody((c) => ({ note: `rendered by upstream task ${upstream(c)} (region cn)` })),
    ],
    [
      'in a header',
      (response: CoreResponse, context: DefectContext) => ({
        ...response,
        headers: { ...response.headers, 'x-upstream-task': upstream(context) },
      }),
    ],
  ])('%s: body.no-other-identifier fails, documented §1', async (name, change) => {
    const { report } = await checkInProcess({ defects: [onQuery(name, change)] });
    const result = report.results.find((r) => r.id === 'body.no-other-identifier')!;
    expect(result.outcome).toBe('fail');
    expect(result.basisText).toBe('documented §1');
    expect(result.violations[0]!.message).toMatch(/exposes another task identifier: .*cgt-/);
    expect(report.ok).toBe(false);
  });
});

describe('§1 is judged on answers no other rule reads: a 429, a 5xx to a query', () => {
  it.each([
    [429, { 'retry-after': '1' }],
    [503, {}],
  ])(
    'the first look answered %i, its body quoting the upstream number: §1 fails',
    async (status, headers) => {
      const looked = new Set<string>();
      const firstLookRefused: Defect = {
        name: `first-look-${status}-with-upstream-number`,
        description: 'refuses the first look at each task, quoting the upstream number',
        breaks: ['public-id-only'],
        after: (_request, response, context) => {
          const { operationId, taskId = '' } = context;
          if (operationId !== 'getVideo' || response.status !== 200 || looked.has(taskId))
            return response;
          looked.add(taskId);
          const message = `upstream task ${upstream(context)} is busy`;
          return jsonResponse(status, { error: { message, type: 'server_error' } }, headers);
        },
      };
      const { report } = await checkInProcess({ defects: [firstLookRefused] }, { budget: 1 });
      expect(looked.size).toBe(1);
      const result = report.results.find((r) => r.id === 'body.no-other-identifier')!;
      expect(result.outcome).toBe('fail');
      expect(result.violations[0]!.message).toMatch(/error\.message = "cgt-/);
    },
  );
});

describe('§4.4: every download of a completed task is judged, not only the first', () => {
  it('a video on the first download and a page on the next fails content.binary', async () => {
    let downloads = 0;
    const secondLookPage: Defect = {
      name: 'content-page-on-second-download',
      description: 'serves the video once, then an HTML page labelled video/mp4',
      breaks: ['content-binary'],
      after: (request, response, { operationId }) => {
        if (operationId !== 'getVideoContent' || request.method !== 'GET') return response;
        if (response.status !== 200 || request.headers['range'] !== undefined) return response;
        if (++downloads === 1) return response;
        return {
          status: 200,
          headers: { 'content-type': 'video/mp4' },
          body: '<html><body>temporarily unavailable</body></html>',
        };
      },
    };
    const { report } = await checkInProcess({ defects: [secondLookPage] }, { budget: 1 });
    expect(downloads).toBeGreaterThan(1);
    const result = report.results.find((r) => r.id === 'content.binary')!;
    expect(result.outcome).toBe('fail');
    expect(result.violations[0]!.message).toMatch(/HTML, not a video/);
    expect(report.ok).toBe(false);
  });
});

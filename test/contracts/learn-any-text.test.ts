// Issue 33 item 5: `learn` and `drift` failed on ordinary deployment text. An error message with a
// line break crashed both ("core is not iterable": the word pattern of the templating matched no
// line break), leaving no profile and no report, while `contract` passed on the same deployment; and
// the templating was quadratic (a 150 KB field: 50 s of CPU). Any text is now templated in one pass,
// and a text longer than MAX_TEMPLATE_CHARS is learned as its length, not its wording.
import { beforeAll, expect, it } from 'vitest';
import type { Defect } from '../../mocks/defects/defect.ts';
import { jsonOf, withJson } from '../../mocks/defects/support.ts';
import {
  describe as describeValue,
  MAX_TEMPLATE_CHARS,
  readProfile,
  type LearnedProfile,
  type ShapeNode,
} from '../../src/profile/index.ts';
import { driftInProcess, learnInProcess } from '../contracts/support/learn-in-process.ts';

const LONG = 150 * 1024;
/** The trace the deployment sends: longer than a template is kept for (the 150 KB case is below). */
const TRACE = 4000;

/** Refusals whose message spans lines, with a long field of text beside it. */
const WORDY_ERRORS: Defect = {
  name: 'wordy-errors',
  description: 'error messages over several lines, and a long trace beside them',
  breaks: [],
  after: (_request, response) => {
    const body = jsonOf(response);
    const error = body?.['error'] as Record<string, unknown> | undefined;
    if (response.status < 400 || error === undefined) return response;
    const message = `${String(error['message'])}\nSee the docs.\r\n\tThank you.`;
    return withJson(response, {
      ...body,
      error: { ...error, message },
      trace: 'x y '.repeat(TRACE / 4),
    });
  },
};

let profile: LearnedProfile;
beforeAll(async () => {
  profile = (await learnInProcess({ mock: { defects: [WORDY_ERRORS] } })).profile;
});

const fieldsOf = (node: ShapeNode | undefined) =>
  node !== undefined && 'object' in node ? node.object : {};

it('learns a deployment whose messages span lines, into a profile that reads', () => {
  const refusal = profile.answers['getVideo missing owner']?.refused;
  expect(refusal).toBeDefined();
  const body = refusal!.body as ShapeNode;
  const message = fieldsOf(fieldsOf(body)['error'])['message'];
  expect(message).toMatchObject({
    kind: 'text',
    template: expect.stringContaining('\nSee the docs.\r\n\tThank you.') as unknown,
  });
  // The long field: its length, not its wording.
  expect(fieldsOf(body)['trace']).toEqual({ kind: 'text', length: [TRACE, TRACE] });
  expect(() => readProfile(JSON.parse(JSON.stringify(profile)))).not.toThrow();
});

it('drifts between two such deployments without a crash, and finds none', async () => {
  const side = { mock: { defects: [WORDY_ERRORS] } };
  const { report } = await driftInProcess(side, side);
  expect(report.differences.filter((d) => d.aspect !== 'timing')).toEqual([]);
});

it('describes a text of any length in one pass', () => {
  const facts = {
    taskIds: new Set(['task_abc']),
    models: new Set(['video-pro-v1']),
    prompts: ['a kite'],
  };
  // One word of 150 KB (the old pattern's worst case) and one of many lines.
  expect(describeValue('x'.repeat(LONG), facts)).toEqual({ kind: 'text', length: [LONG, LONG] });
  const lines = `task_abc failed:\n${'line\n'.repeat(300)}`.slice(0, MAX_TEMPLATE_CHARS);
  expect(describeValue(lines, facts)).toMatchObject({
    kind: 'text',
    template: expect.stringMatching(/^\{task-id\} failed:\nline\n/) as unknown,
  });
});

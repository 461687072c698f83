// Issue 33 item 8, learn and drift: the run's observer kept every answer whole (the body's bytes up to
// the 4 MiB cap and its parsed JSON), and every field any answer ever had was merged into the profile:
// against a deployment padding each JSON answer with fields no answer had before, `learn` reached
// 3.1 GB and wrote nothing, and profiles of 141 MB were written (that no mock could load). The
// observer now keeps what the recorder keeps for reports and the part of the JSON a shape is learned
// from; a learned shape is bounded as it grows; what `learn` writes, a mock reads.
import { beforeAll, expect, it } from 'vitest';
import type { Exchange } from '../../contracts/http-recorder.ts';
import { RunObserver } from '../../contracts/learn/run-observer.ts';
import type { Defect } from '../../mocks/defects/defect.ts';
import { jsonOf, withJson } from '../../mocks/defects/support.ts';
import {
  MAX_OBJECT_FIELDS,
  PRUNED_LENGTH,
  readProfile,
  type LearnedProfile,
  type ShapeNode,
} from '../../src/profile/index.ts';
import { learnInProcess } from '../contracts/support/learn-in-process.ts';

it('the observer keeps the first bytes of a body and a bounded part of its JSON', () => {
  const fields = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`f${i}`, i]));
  const json = {
    ...fields,
    list: Array.from({ length: 10_000 }, (_, i) => i),
    text: 'x'.repeat(1e6),
    // What the learner reads by name, after the padding: still kept.
    id: 'task_abc',
    status: 'queued',
    data: { status: 'QUEUED' },
  };
  const head = new Uint8Array(4 * 2 ** 20);
  const observer = new RunObserver();
  observer.record({ json, head, bytes: head.byteLength } as unknown as Exchange, {}, 0);
  const kept = observer.seen[0]!.exchange;
  expect(kept.head.byteLength).toBeLessThanOrEqual(4096);
  const keptJson = kept.json as Record<string, unknown>;
  expect(Object.keys(keptJson).length).toBeLessThanOrEqual(MAX_OBJECT_FIELDS + 3);
  expect(JSON.stringify(keptJson).length).toBeLessThan(128 * 1024);
  expect(keptJson).toMatchObject({ id: 'task_abc', status: 'queued', data: { status: 'QUEUED' } });
});

it("keeps a cut list's length", () => {
  const observer = new RunObserver();
  const list = Array.from({ length: 10_000 }, (_, i) => i);
  observer.record(
    { json: { list }, head: new Uint8Array(), bytes: 1 } as unknown as Exchange,
    {},
    0,
  );
  const kept = (observer.seen[0]!.exchange.json as { list: unknown[] }).list;
  expect(kept.length).toBeLessThan(list.length);
  expect((kept as { [PRUNED_LENGTH]?: number })[PRUNED_LENGTH]).toBe(10_000);
});

/** Every JSON answer padded with 100 fields no answer had before. */
let answers = 0;
const NEW_FIELDS: Defect = {
  name: 'new-fields',
  description: 'pads every JSON object answer with fields no answer had before',
  breaks: [],
  after: (_request, response) => {
    const body = jsonOf(response);
    if (body === undefined || Array.isArray(body)) return response;
    answers++;
    const pad = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`a${answers}_${i}`, i]));
    return withJson(response, { ...body, ...pad });
  },
};

let profile: LearnedProfile;
beforeAll(async () => {
  profile = (await learnInProcess({ mock: { defects: [NEW_FIELDS] } })).profile;
});

function widest(node: ShapeNode): number {
  if ('object' in node)
    return Math.max(Object.keys(node.object).length, ...Object.values(node.object).map(widest));
  if ('array' in node) return node.array === null ? 0 : widest(node.array);
  if ('oneOf' in node) return Math.max(...node.oneOf.map(widest));
  return 0;
}

it('learns such a deployment into a bounded profile a mock reads', () => {
  const text = JSON.stringify(profile);
  expect(text.length).toBeLessThan(4 * 2 ** 20);
  for (const situations of Object.values(profile.answers))
    for (const answer of Object.values(situations))
      if (answer !== undefined && !('binary' in answer.body) && !('none' in answer.body))
        expect(widest(answer.body)).toBeLessThanOrEqual(MAX_OBJECT_FIELDS);
  expect(() => readProfile(text)).not.toThrow();
});

import { describe, expect, it } from 'vitest';
import { resolveDefects } from '../../mocks/defects/catalog.ts';
import { mutantFor } from '../../mocks/defects/mutants/index.ts';
import type { Defect } from '../../mocks/defects/defect.ts';
import { describeBody } from '../../src/media/video-signature.ts';
import { checkInProcess } from '../contracts/support/in-process.ts';

// Issue 22, "documented rules not judged yet": each of these deployments broke a rule the document
// states, and the suite passed it. §4.4: a 200 from /content whose bytes are an HTML page, JSON or
// nothing passed when labelled video/mp4. §4.1: a submission answered 201/202 passed. §2.1: a
// submission without `model`, or with a non-string `prompt`, was never sent. §4.2/§2.3: a completed
// task with an empty `metadata.url` or `data.result_url` passed, and a bad `data.result_url` was
// cited as §2.2.

const outcome = (report: Awaited<ReturnType<typeof checkInProcess>>['report'], id: string) =>
  report.results.find((r) => r.id === id)!;

async function failsWith(defects: readonly Defect[], id: string, basis: string, message: RegExp) {
  const { report } = await checkInProcess({ defects: [...defects] }, { budget: 2 });
  const result = outcome(report, id);
  expect(result.outcome, JSON.stringify(result.violations[0])).toBe('fail');
  expect(result.basisText).toBe(basis);
  expect(result.violations[0]!.message).toMatch(message);
  expect(report.ok).toBe(false);
  return report;
}

describe('§4.4: the bytes of a completed download decide whether it is a video', () => {
  it.each([
    ['content-html-as-video', /HTTP 200, video\/mp4, \d+ bytes: HTML, not a video/],
    ['content-empty-video', /HTTP 200, video\/mp4, 0 bytes: no bytes at all, not a video/],
    ['content-as-json', /HTTP 200, application\/json[^,]*, \d+ bytes: JSON, not a video/],
  ])('%s fails content.binary', async (name, message) => {
    await failsWith(resolveDefects([name]), 'content.binary', 'documented §4.4', message);
  });

  it('says which container a passing download was', async () => {
    const { report } = await checkInProcess();
    expect(outcome(report, 'content.binary').outcome).toBe('pass');
    expect(report.notes).toContain(
      'content: the completed task downloads as a video (ISO BMFF (ftyp)), video/mp4',
    );
  });

  const bytes = (...values: number[]) => new Uint8Array(values);
  const text = (value: string) => new TextEncoder().encode(value);
  const packets = (size: number, prefix = 0) => {
    const head = new Uint8Array(512);
    for (let at = prefix; at < head.length; at += size) head[at] = 0x47;
    return head;
  };
  it.each([
    [
      'MP4',
      bytes(0, 0, 0, 0x20, ...text('ftypisom')),
      { kind: 'video', container: 'ISO BMFF (ftyp)' },
    ],
    [
      'a CMAF segment',
      bytes(0, 0, 0, 0x18, ...text('stypmsdh')),
      { kind: 'video', container: 'ISO BMFF segment (styp)' },
    ],
    [
      'a QuickTime file without ftyp',
      bytes(0, 0, 0, 8, ...text('wide')),
      { kind: 'video', container: 'QuickTime' },
    ],
    [
      'WebM',
      bytes(0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86),
      { kind: 'video', container: 'Matroska/WebM (EBML)' },
    ],
    ['MPEG-TS', packets(188), { kind: 'video', container: 'MPEG-TS' }],
    ['M2TS', packets(192, 4), { kind: 'video', container: 'MPEG-TS (M2TS, 192-byte packets)' }],
    ['MPEG-PS', bytes(0, 0, 1, 0xba, 0x44), { kind: 'video', container: 'MPEG-PS' }],
    ['AVI', text('RIFF\u0000\u0001\u0000\u0000AVI LIST'), { kind: 'video', container: 'AVI' }],
    ['FLV', bytes(0x46, 0x4c, 0x56, 0x01, 0x05), { kind: 'video', container: 'FLV' }],
    ['Ogg', text('OggS\u0000\u0002'), { kind: 'video', container: 'Ogg' }],
    [
      'ASF',
      bytes(0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11, 0xa6),
      { kind: 'video', container: 'ASF (WMV)' },
    ],
    [
      'MXF',
      bytes(0x06, 0x0e, 0x2b, 0x34, 0x02, 0x05, 0x01, 0x01, 0x0d),
      { kind: 'video', container: 'MXF' },
    ],
    ['an HTML page', text('\n  <!DOCTYPE html><html>…'), { kind: 'text', what: 'HTML' }],
    ['an XML document', text('<?xml version="1.0"?><MPD/>'), { kind: 'text', what: 'XML' }],
    ['JSON', text('{"url":"https://cdn.example.com/v.mp4"}'), { kind: 'text', what: 'JSON' }],
    ['plain text', text('Video not ready, try again later.'), { kind: 'text', what: 'plain text' }],
    [
      'text whose last character is cut',
      text('vidéo').subarray(0, 4),
      { kind: 'text', what: 'plain text' },
    ],
    [
      '"G" followed by text (no second sync byte)',
      text('GET lost'),
      { kind: 'text', what: 'plain text' },
    ],
    ['binary of no known container', bytes(0, 0, 0, 1, 0x67, 0x42, 0xc0, 0x1e), { kind: 'binary' }],
  ] as const)('recognises %s', (_name, head, expected) => {
    const total = _name.includes('cut') ? head.byteLength + 3 : head.byteLength;
    expect(describeBody(head, total)).toEqual(expected);
  });

  it('calls nothing at all empty, whatever its first bytes', () => {
    expect(describeBody(new Uint8Array(), 0)).toEqual({ kind: 'empty' });
  });
});

describe('§4.1: a submission is answered 200', () => {
  it('a 202 with the task fails submission.status-200, and the task is still followed', async () => {
    const report = await failsWith(
      resolveDefects(['submission-202-accepted']),
      'submission.status-200',
      'documented §4.1',
      /^POST \/v1\/video\/generations accepted a task \(via POST \S+\) with HTTP 202, where §4\.1 documents 200$/,
    );
    expect(report.tasksCreated).toBe(2);
    expect(outcome(report, 'submission.both-paths').outcome).toBe('pass');
  });

  it('the generated mutant answering 201 is caught on each submit path', async () => {
    for (const route of ['createVideoGeneration', 'createVideo']) {
      const mutant = mutantFor('submission-status-200', { route, state: 'n/a', caller: 'owner' });
      await failsWith([mutant as Defect], 'submission.status-200', 'documented §4.1', /HTTP 201/);
    }
  });
});

describe('§2.1: model and prompt are required strings', () => {
  it('a deployment that fills them in fails input.required-fields, naming what was sent', async () => {
    const report = await failsWith(
      resolveDefects(['required-fields-defaulted']),
      'input.required-fields',
      'documented §2.1',
      /^POST \/v1\/video\/generations with the owner's key, without model, answered HTTP 200/,
    );
    // Each probe that a broken deployment accepts costs a task: the budget still holds, and the probes
    // leave a lifecycle task's share (issue 31 item 4): once one was accepted, the rest wait for a
    // larger budget, and a lifecycle task is still followed.
    expect(report.tasksCreated + report.unconfirmed.length).toBeLessThanOrEqual(2);
    expect(outcome(report, 'sequence.reaches-end').passes).toBe(1);
  });

  it('a conforming deployment refuses every probe on both paths', async () => {
    const { report } = await checkInProcess();
    const result = outcome(report, 'input.required-fields');
    expect(result.outcome).toBe('pass');
    expect(result.passes).toBe(8);
    // The empty-prompt check judges only the empty-prompt probes (two per path), not these.
    expect(outcome(report, 'input.empty-prompt').passes).toBe(4);
  });

  it('with no budget left for them, the probes are not sent and the check says why', async () => {
    const { report, service } = await checkInProcess({}, { budget: 0 });
    expect(service.store.size).toBe(0);
    expect(outcome(report, 'input.required-fields')).toMatchObject({
      outcome: 'skip',
      skipped: expect.stringMatching(/budget leaves nothing/) as unknown,
    });
  });
});

describe('§4.2, §2.2, §2.3: a completed task has a result address, each cited by its section', () => {
  it.each([
    [
      'getVideo',
      'result-url-address',
      'body.result-address',
      'documented §2.2',
      /^metadata\.url = "": empty on a completed task/,
    ],
    [
      'getVideoGeneration',
      'wrapper-result-url-address',
      'wrapper.result-address',
      'documented §2.3',
      /^data\.result_url = "": empty on a completed task/,
    ],
  ] as const)('an empty address on %s fails %s', async (route, rule, id, basis, message) => {
    const mutant = mutantFor(rule, { route, state: 'completed', caller: 'owner' }) as Defect;
    await failsWith([mutant], id, basis, message);
  });

  it("the gateway's failure reason in data.result_url is cited as §2.3", async () => {
    const { report } = await checkInProcess(
      { profile: 'observed', defects: ['gateway-result-url-fallback'] },
      { failing: { prompt: 'a storm [mock:fail]' }, budget: 3 },
    );
    expect(outcome(report, 'wrapper.result-address')).toMatchObject({
      outcome: 'fail',
      basisText: 'documented §2.3',
    });
    expect(outcome(report, 'body.result-address').outcome).toBe('pass');
  });

  it('an empty address while the task runs is the gateway habit it is, and passes', async () => {
    const { report } = await checkInProcess({ profile: 'observed' });
    expect(outcome(report, 'body.result-address').outcome).toBe('pass');
    expect(outcome(report, 'wrapper.result-address').outcome).toBe('pass');
  });
});

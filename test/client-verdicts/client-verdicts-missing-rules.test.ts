// Issue 32 item 5: rules of the document no client rule judged, found by sending clients that break
// them. Each client below broke one and got no verdict: content downloaded before the client was ever
// told the task completed (§3 rule 2); a query for a task ID the mock never issued to that caller (§1:
// the client keeps the ID); a JSON body missing a required field, and a body labelled JSON that is not
// JSON (§2.1, §4.1); polling a running task more slowly than §8's ceiling (advice); second-family
// reference URLs the upstream cannot read, or short-lived previews (§2.1; advice where the mock cannot
// know).
import { describe, expect, it } from 'vitest';
import { createMockService } from '../../mocks/index.ts';
import { coreWire, type Wire } from '../client-verdicts/wire.ts';

const KITE = { model: 'video-pro-v1', prompt: 'a red kite' };
const reference = (url: string) => ({
  model: 'alt-video-v2',
  prompt: 'a paper boat',
  metadata: { duration: 5, content: [{ type: 'image_url', image_url: { url } }] },
});

async function verdictsOf(
  run: (wire: Wire) => Promise<void>,
  key = 'sk-mock-alice',
): Promise<string[][]> {
  const service = createMockService({
    clock: { mode: 'manual' },
    seed: 'missing',
    familyBound: true,
  });
  await run(coreWire(service, key));
  return service.clientReport().verdicts.map((v) => [v.rule, v.section, v.outcome]);
}

const idOf = (body: unknown) => (body as { id: string }).id;

describe('a client that breaks a rule the table lacked gets its verdict', () => {
  it('downloads the content without ever being told the task completed (§3 rule 2)', async () => {
    const verdicts = await verdictsOf(async (wire) => {
      const id = idOf((await wire.call('POST', '/v1/videos', { body: KITE })).body);
      await wire.advance(10 * 60_000);
      expect((await wire.call('GET', `/v1/videos/${id}/content`)).status).toBe(200);
    });
    expect(verdicts).toEqual([['content-after-completion', '§3', 'violation']]);
  });

  it('queries a task ID the mock never issued to it (§1)', async () => {
    const verdicts = await verdictsOf(async (wire) => {
      const id = idOf((await wire.call('POST', '/v1/videos', { body: KITE })).body);
      await wire.advance(5_000);
      expect((await wire.call('GET', `/v1/videos/${id.toLowerCase()}`)).status).toBe(404);
    });
    expect(verdicts).toEqual([['keep-task-id', '§1', 'violation']]);
  });

  it('sends a JSON submission without its prompt (§2.1)', async () => {
    const verdicts = await verdictsOf(async (wire) => {
      await wire.call('POST', '/v1/video/generations', { body: { model: 'video-pro-v1' } });
    });
    expect(verdicts).toEqual([['required-fields', '§2.1', 'violation']]);
  });

  it('sends a body labelled JSON that is not JSON (§4.1)', async () => {
    const verdicts = await verdictsOf(async (wire) => {
      const headers = { 'content-type': 'application/json' };
      await wire.call('POST', '/v1/videos', { raw: 'model=video-pro-v1&prompt=kite', headers });
    });
    expect(verdicts).toEqual([['json-body', '§4.1', 'violation']]);
  });

  it('polls a running task every two minutes (§8, advice)', async () => {
    const verdicts = await verdictsOf(async (wire) => {
      const stuck = { ...KITE, prompt: 'a kite [mock:stuck]' };
      const id = idOf((await wire.call('POST', '/v1/videos', { body: stuck })).body);
      for (let n = 0; n < 3; n++) {
        await wire.advance(120_000);
        await wire.call('GET', `/v1/videos/${id}`);
      }
    });
    expect(verdicts).toEqual([['poll-ceiling', '§8', 'advice']]);
  });

  it('passes the second family a reference on a private host (§2.1)', async () => {
    const verdicts = await verdictsOf(async (wire) => {
      await wire.call('POST', '/v1/videos', { body: reference('http://192.168.1.20/kite.png') });
    }, 'sk-mock-vip');
    expect(verdicts).toEqual([['second-family-readable-references', '§2.1', 'violation']]);
  });

  it('passes the second family a presigned preview (§2.1, advice: how long it lives is unknown)', async () => {
    const signed = 'https://b.example.com/k.png?X-Goog-Expires=600&X-Goog-Signature=ab';
    const verdicts = await verdictsOf(async (wire) => {
      await wire.call('POST', '/v1/videos', { body: reference(signed) });
    }, 'sk-mock-vip');
    expect(verdicts).toEqual([['second-family-no-preview-references', '§2.1', 'advice']]);
  });
});

// The msw host's side of unsendable-header-answered.e2e.test.ts: a learned profile whose refusal
// echoes the model asked for in `x-model`, asked for "vidéo€", made `new Response` throw; msw answered
// its own 500 with the error's stack trace in the body. The handlers now answer the learned refusal
// without that header, naming it in `x-mock-dropped-headers`, as the node host does.
import { readFileSync } from 'node:fs';
import { setupServer } from 'msw/node';
import { expect, it } from 'vitest';
import { createHandlers, createMockService } from '../../mocks/index.ts';
import type { LearnedProfile } from '../../src/profile/index.ts';

const profile = JSON.parse(
  readFileSync(new URL('../../mocks/profiles/observed.json', import.meta.url), 'utf8'),
) as LearnedProfile;
const cell = profile.answers['createVideo n/a owner']!['unknown-model']!;
(cell.headers as Record<string, unknown>)['x-model'] = { kind: 'model' };

it('answers a learned refusal whose header would echo a model name beyond Latin-1, without that header', async () => {
  const server = setupServer(...createHandlers(createMockService({ profile })));
  server.listen({ onUnhandledRequest: 'error' });
  try {
    const submit = (model: string) =>
      fetch('http://video.test/v1/videos', {
        method: 'POST',
        headers: { authorization: 'Bearer sk-mock-alice', 'content-type': 'application/json' },
        body: JSON.stringify({ model, prompt: 'a red kite' }),
      });
    const sendable = await submit('video-nope');
    expect(sendable.headers.get('x-model')).toBe('video-nope');
    const answer = await submit('vidéo€');
    expect(answer.status).toBe(sendable.status);
    expect(answer.headers.get('x-model')).toBeNull();
    expect(answer.headers.get('x-mock-dropped-headers')).toBe('x-model');
    const text = await answer.text();
    expect(text).not.toMatch(/stack|TypeError/);
    type Refusal = { error: { code: unknown; type: unknown } };
    const { error } = JSON.parse(text) as Refusal;
    const learned = (JSON.parse(await sendable.text()) as Refusal).error;
    expect([error.code, error.type]).toEqual([learned.code, learned.type]);
  } finally {
    server.close();
  }
});

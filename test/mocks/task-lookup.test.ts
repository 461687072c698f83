import { describe, expect, it } from 'vitest';
import { createMockService, type MockService } from '../../mocks/index.ts';
import { coreRequest } from '../helpers/core-client.ts';

// TaskLookup remembers the task it found last (issue 23: a client polls one task again and again);
// whatever came before, each lookup answers as if it had not.

function submit(service: MockService, key: string): string {
  const answer = service.handle(
    coreRequest('POST', '/v1/videos', { key, body: { model: 'video-lite-v1', prompt: 'tide' } }),
  );
  return (JSON.parse(answer.body as string) as { id: string }).id;
}

/** The ID with its last character changed: always another ID (a random one may end in `x`). */
const mangled = (id: string) => `${id.slice(0, -1)}${id.endsWith('x') ? 'y' : 'x'}`;

describe('task lookups one after another', () => {
  it('find each task for its owner only, whichever was found before', () => {
    const service = createMockService({ clock: { mode: 'manual' }, seed: 'lookups' });
    const alices = [submit(service, 'sk-mock-alice'), submit(service, 'sk-mock-alice')];
    const bobs = submit(service, 'sk-mock-bob');
    const asked: [string, string][] = [
      [alices[0]!, 'alice'],
      [alices[0]!, 'bob'],
      [alices[0]!, 'alice'],
      [bobs, 'alice'],
      [bobs, 'bob'],
      [alices[1]!, 'alice'],
      [mangled(alices[1]!), 'alice'],
      [alices[1]!, 'alice'],
    ];
    const found = asked.map(([id, owner]) => service.store.getOwned(id, owner)?.id);
    expect(found).toEqual([
      alices[0],
      undefined,
      alices[0],
      undefined,
      bobs,
      alices[1],
      undefined,
      alices[1],
    ]);
    expect(service.store.get(bobs)?.owner).toBe('bob');
  });

  it('find no task of before a reset, even the one found last', () => {
    const service = createMockService({ clock: { mode: 'manual' }, seed: 'lookups' });
    const id = submit(service, 'sk-mock-alice');
    expect(service.store.getOwned(id, 'alice')?.id).toBe(id);
    service.reset();
    expect(service.store.getOwned(id, 'alice')).toBeUndefined();
    expect(service.store.get(id)).toBeUndefined();
  });
});

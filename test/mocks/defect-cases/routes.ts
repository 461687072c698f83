// Defects of the routes §4 lists: a gateway without one of the two submit paths.
import { expect } from 'vitest';
import { client, KITE } from './client.ts';
import type { Case } from './session.ts';

/** The path answers a valid submission with the 404 of a route it does not have; the other accepts it. */
function missing(path: string, other: string): () => void {
  return () => {
    const c = client([`${path.split('/').at(-1)}-path-missing`]);
    const refused = c.call('POST', path, { body: KITE });
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ error: { code: 'route_not_found' } });
    expect(c.call('POST', other, { body: KITE }).status).toBe(200);
  };
}

export const ROUTE_CASES: readonly Case[] = [
  [
    'generations-path-missing',
    (s) => s.label === 'alice submits A',
    missing('/v1/video/generations', '/v1/videos'),
  ],
  [
    'videos-path-missing',
    (s) => s.label === 'alice submits B (fails)',
    missing('/v1/videos', '/v1/video/generations'),
  ],
];

import { it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createMockService } from '/work/wt/learn/mocks/index.ts';
it('dbg', () => {
  const profile = JSON.parse(readFileSync('/tmp/dep-redirector.json', 'utf8'));
  const s = createMockService({ profile, familyBound: true, clock: { mode: 'manual', start: Date.UTC(2026, 10, 22) } });
  const call = (method: string, path: string, key: string | null, body?: unknown) => s.handle({ method, path, query: '', headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? new TextEncoder().encode(JSON.stringify(body)) : undefined, origin: 'http://m.test' });
  for (const r of [call('GET', '/v1/models', 'sk-mock-vip'), call('GET', '/v1/models', null), call('POST', '/v1/videos', 'sk-mock-vip', { model: 'video-pro-v1', prompt: 'x' })]) console.log(r.status, r.headers, String(r.body).slice(0, 400));
});

// The state file in-process (decisions/012): a restarted service answers every task as before, the
// journal is complete without any flush (a copy is what a kill -9 leaves), and a reset persists.
import { copyFileSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readStateFile } from '../../mocks/node/state-file/reader.ts';
import { expectControlConformant } from '../helpers/conformance.ts';
import { stateFileServices } from '../helpers/state-file-services.ts';

const { dir, open, closedByTest } = stateFileServices('videotask-state-');
function close(client: ReturnType<typeof open>): void {
  client.service.stateFile!.close();
}
const lines = (path: string) => readFileSync(path, 'utf8').trimEnd().split('\n');

/** Every answer a client can get about these tasks now, as text. */
function answers(client: ReturnType<typeof open>, tasks: { id: string; key: string }[]): string[] {
  return tasks.flatMap(({ id, key }) =>
    [`/v1/videos/${id}`, `/v1/video/generations/${id}`, `/__mock/tasks/${id}`].map((path) => {
      const { status, body } = client.call('GET', path, { key });
      return `${status} ${JSON.stringify(body)}`;
    }),
  );
}

describe('the state file, in-process', () => {
  it('answers every task, forced outcome, flaky count, extras and the binding the same after a restart', () => {
    const path = join(dir, 'roundtrip.state');
    const a = open(path);
    const submit = (key: string, prompt: string, metadata?: object) => ({
      key,
      id: a.submit({ model: 'video-pro-v1', prompt, ...(metadata ? { metadata } : {}) }, key),
    });
    const tasks = [
      submit('sk-mock-alice', 'x [mock:stuck]'),
      submit('sk-mock-alice', 'x [mock:flaky:3]', { duration: 7 }),
      submit('sk-mock-bob', 'x'),
      submit('sk-mock-bob', 'x [mock:fail:MyOwnCode]', { duration: 2.5 }), // both in the extras
    ];
    expect(a.call('GET', `/v1/videos/${tasks[1]!.id}`).status).toBe(503);
    a.service.clock.advance(1_000);
    const forced = a.call('POST', `/__mock/tasks/${tasks[2]!.id}/outcome`, {
      body: { outcome: 'fail', code: 'GenerationTimeout', afterMs: 600_000 },
    });
    expect(forced.status).toBe(200);
    expect(a.call('PUT', '/__mock/family', { body: { bound: true } }).status).toBe(200);
    tasks.push({
      key: 'sk-mock-vip',
      id: a.submit({ model: 'alt-video-v2', prompt: 'x' }, 'sk-mock-vip'),
    });
    a.service.clock.advance(4_000);
    const steady = tasks.filter((_, i) => i !== 1); // asking the flaky task counts a query
    const before = answers(a, steady);
    const listed = a.call('GET', '/__mock/tasks').body;
    const now = a.service.clock.now();
    close(a);

    const b = open(path, { seed: 'other' });
    expect(b.service.seed).toBe('test'); // the file's seed wins
    expect(b.service.clock.now()).toBe(now); // a manual clock resumes exactly where it was
    expect(b.service.family.bound).toBe(true);
    expect(answers(b, steady)).toEqual(before);
    expect(b.call('GET', '/__mock/tasks').body).toEqual(listed);
    expect(b.call('GET', `/v1/videos/${tasks[1]!.id}`).status).toBe(200); // query 2 of flaky:3
    expect(b.call('GET', `/v1/videos/${tasks[1]!.id}`).status).toBe(200);
    expect(b.call('GET', `/v1/videos/${tasks[1]!.id}`).status).toBe(503); // query 4
    expect(b.submit()).not.toBe(tasks[0]!.id);
  });

  it('keeps everything a 200 told without a flush: a copy taken at any moment (a kill -9) restores it', () => {
    const path = join(dir, 'journal.state');
    const a = open(path);
    const first = a.submit();
    a.call('POST', `/__mock/tasks/${first}/outcome`, { body: { outcome: 'stuck' } });
    const second = a.submit({ model: 'video-pro-v1', prompt: 'x [mock:unknown:2.25]' });
    a.call('POST', '/__mock/clock/advance', { body: { ms: 90_000 } });
    a.call('POST', '/v1/videos', {
      body: { model: 'video-pro-v1', prompt: 'x' },
      headers: { 'x-request-id': 'req-1' },
    });
    const crashed = join(dir, 'journal-copy.state');
    copyFileSync(path, crashed);
    const restored = readStateFile(crashed)!;
    expect(restored.tasks).toEqual([first, second, restored.tasks[2]]);
    expect(restored.clock).toBe(a.service.clock.now());
    expect(restored.shared.forced.get(first)?.scenario).toBe('forced:stuck');
    expect(restored.shared.extras.get(second)).toEqual({ scenario: 'unknown', arg: '2.25' });
    expect(restored.shared.clientRequestIds.get('req-1')).toBe(1);
    expect(JSON.parse(lines(path)[0]!)).toMatchObject({
      format: 'videotask-mock-state',
      version: 2,
    });
  });

  it('keeps a random secret in the file, readable by its owner only, and gives the same tasks back', () => {
    const path = join(dir, 'secret.state');
    const a = open(path, { secret: undefined });
    const id = a.submit();
    const header = JSON.parse(lines(path)[0]!) as { secret?: string };
    expect(header.secret).toMatch(/^[\w-]{43}$/);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    close(a);
    const b = open(path, { secret: undefined });
    expect(b.call('GET', `/v1/videos/${id}`).status).toBe(200);
  });

  it('writes only the fingerprint of a given secret, and refuses to start without it or with another', () => {
    const path = join(dir, 'given.state');
    const a = open(path, { secret: 'shared-by-replicas' });
    a.submit();
    close(a);
    expect(readFileSync(path, 'utf8')).not.toContain('shared-by-replicas');
    const text = readFileSync(path, 'utf8');
    expect(() => open(path, { secret: undefined })).toThrow(/give the same one again/);
    expect(() => open(path, { secret: 'another' })).toThrow(/written under another secret/);
    expect(readFileSync(path, 'utf8')).toBe(text); // a failed start writes nothing
    expect(open(path, { secret: 'shared-by-replicas' }).service.store.size).toBe(1);
  });

  it('persists a reset: its tasks stay gone after a restart, and the binding it restores', () => {
    const path = join(dir, 'reset.state');
    const a = open(path);
    const id = a.submit();
    a.call('PUT', '/__mock/family', { body: { bound: true } });
    expect(a.call('POST', '/__mock/reset').status).toBe(200);
    const after = a.submit();
    close(a);
    const b = open(path);
    expect(b.call('GET', `/v1/videos/${id}`).status).toBe(404);
    expect(b.call('GET', `/v1/videos/${after}`).status).toBe(200);
    expect(b.service.family.bound).toBe(false);
    expect([...b.service.store.values()].map((t) => t.id)).toEqual([after]);
  });

  it('answers 503 and changes nothing when a control change cannot be kept (the file closed under it)', () => {
    const path = join(dir, 'closed.state');
    const a = open(path);
    const id = a.submit();
    const now = a.service.clock.now();
    close(a);
    closedByTest(a);
    const answer = a.call('POST', '/__mock/clock/advance', { body: { ms: 1000 } });
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ error: { code: 'state_not_saved' } });
    expectControlConformant('advanceMockClock', answer);
    expect(a.service.clock.now()).toBe(now);
    const force = a.call('POST', `/__mock/tasks/${id}/outcome`, { body: { outcome: 'fail' } });
    expect(force.status).toBe(503);
    expect(a.call('GET', `/__mock/tasks/${id}`).body).toMatchObject({
      plan: { scenario: 'succeed' },
    });
  });

  it('is the whole state file when watched (a cluster primary): compacts, closes, frees the lock', async () => {
    const path = join(dir, 'observed.state');
    const told: string[] = [];
    const observer = { operation: (o: { op: string }) => told.push(o.op), ceiling: () => {} };
    const a = open(path, { secret: undefined, observer, stateFile: { path, compactAfter: 1e6 } });
    const file = a.service.stateFile!;
    expect([file.path, file.keepsSecret, file.restored]).toEqual([path, true, undefined]);
    const id = a.submit();
    for (let i = 0; i < 20; i++) a.service.clock.advance(10);
    expect(told.filter((op) => op === 'advance')).toHaveLength(20);
    await file.compact();
    expect(lines(path).length).toBeLessThan(5);
    file.flush();
    file.close();
    closedByTest(a);
    const b = open(path, { secret: undefined });
    expect(b.service.stateFile!.restored).toMatchObject({ starts: 1, tasks: [id] });
    expect(b.service.clock.now()).toBe(a.service.clock.now());
  });
});

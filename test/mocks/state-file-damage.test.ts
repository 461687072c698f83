// The state file when things go wrong (decisions/012): torn and hand-edited lines, files that do not
// parse (named by line, never overwritten), a second mock on the same file, compaction under way.
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StateFileError } from '../../mocks/node/state-file/format.ts';
import { readStateFile } from '../../mocks/node/state-file/reader.ts';
import { coreClient } from '../helpers/core-client.ts';
import { eventually } from '../helpers/eventually.ts';
import { stateFileServices } from '../helpers/state-file-services.ts';

const { dir, open } = stateFileServices('videotask-state-damage-');
const lines = (path: string) => readFileSync(path, 'utf8').trimEnd().split('\n');

describe('a damaged or busy state file', () => {
  it('ignores a torn last line and terminates a complete one before appending', () => {
    const path = join(dir, 'torn.state');
    const a = open(path);
    const id = a.submit();
    a.service.stateFile!.close();
    appendFileSync(path, '{"task":"task_');
    const restored = readStateFile(path)!;
    expect(restored.tasks).toEqual([id]);
    expect(restored.ignoredBytes).toBe('{"task":"task_'.length);
    const b = open(path);
    b.submit();
    b.service.stateFile!.close();
    expect(readStateFile(path)!.tasks).toHaveLength(2);

    writeFileSync(path, readFileSync(path, 'utf8').trimEnd()); // a hand edit drops the last newline
    const c = open(path);
    expect(c.service.store.size).toBe(2);
    c.submit();
    expect(readStateFile(path)!.tasks).toHaveLength(3);
  });

  it('refuses a file that does not parse, naming the line, and never writes to it', () => {
    const path = join(dir, 'good.state');
    open(path).submit();
    const header = lines(path)[0]!;
    const cases: [string, RegExp][] = [
      ['not json\n', /line 1: not JSON/],
      [
        '{"format":"videotask-mock-state","version":1}\n',
        /line 1: format version 1 is not supported/,
      ],
      [`${header}\n{"task":"task_x"}\n`, /line 2: task must be a task ID/],
      [`${header}\n{"clock":"soon"}\n`, /line 2: clock must be a number/],
      [`${header}\n{"op":{"op":"advance","ms":5}}\n`, /line 2: op\.op must be force, bind/],
      [`${header}\n\n{"clock":1}\n`, /line 2: an empty line/],
      [`${header}\n{"forced":["task_0","x"]}\n`, /line 2: forced\[0\] must be a task ID/],
      [`${header.replace(/"generation":0/, '"generation":-1')}\n`, /line 1: generation must be/],
    ];
    for (const [text, message] of cases) {
      const bad = join(dir, 'bad.state');
      writeFileSync(bad, text);
      expect(() => readStateFile(bad)).toThrow(StateFileError);
      expect(() => readStateFile(bad)).toThrow(message);
      expect(() => coreClient({ stateFile: bad })).toThrow(bad);
      expect(readFileSync(bad, 'utf8')).toBe(text);
      expect(existsSync(`${bad}.lock`)).toBe(false); // a failed start leaves no lock either
    }
    expect(readStateFile(join(dir, 'missing.state'))).toBeUndefined();
    writeFileSync(join(dir, 'empty.state'), '');
    expect(readStateFile(join(dir, 'empty.state'))).toBeUndefined();
  });

  it('refuses a second service on a file in use, naming the process, and lets one start once it is closed', () => {
    const path = join(dir, 'busy.state');
    const a = open(path);
    a.submit();
    const text = readFileSync(path, 'utf8');
    expect(() => coreClient({ stateFile: path })).toThrow(
      new RegExp(`in use by another mock \\(process ${process.pid}; lock ${path}\\.lock\\)`),
    );
    expect(readFileSync(path, 'utf8')).toBe(text);
    a.service.stateFile!.close();
    expect(existsSync(`${path}.lock`)).toBe(false);
    expect(open(path).service.store.size).toBe(1);
  });

  it('takes over the lock of a process that no longer runs', () => {
    const path = join(dir, 'stale.state');
    open(path).service.stateFile!.close();
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: 2 ** 22 + 12_345, host: hostname() }));
    expect(open(path).service.store.size).toBe(0);
    expect(JSON.parse(readFileSync(`${path}.lock`, 'utf8'))).toMatchObject({ pid: process.pid });
  });

  it('compacts without losing what happens meanwhile, and the result reads back the same', async () => {
    const path = join(dir, 'compact.state');
    const a = open(path, { stateFile: { path, compactAfter: 1_000_000 } });
    const ids = [a.submit(), a.submit({ model: 'video-pro-v1', prompt: 'x [mock:flaky:2]' })];
    for (let i = 0; i < 300; i++) a.service.clock.advance(10);
    for (let i = 0; i < 5; i++) a.call('GET', `/v1/videos/${ids[1]}`);
    expect(lines(path).length).toBe(1 + 2 + 300 + 5);
    const compaction = a.service.stateFile!.compact();
    const during = a.submit(); // while the copy is being written
    a.service.clock.advance(10);
    await compaction;
    const after = a.submit();
    const restored = readStateFile(path)!;
    expect(restored.tasks).toEqual([...ids, during, after]);
    expect(restored.clock).toBe(a.service.clock.now());
    expect(restored.shared.queries.get(ids[1]!)).toBe(5);
    expect(lines(path).length).toBeLessThan(12);
    expect(readFileSync(path, 'utf8')).not.toMatch(/"op":\{"op":"query"/); // folded into a count
  });

  it('starts compacting by itself once the journal outgrows the live state', async () => {
    const path = join(dir, 'auto.state');
    const a = open(path, { stateFile: { path, compactAfter: 50 } });
    a.submit();
    for (let i = 0; i < 60; i++) a.service.clock.advance(10);
    // The compaction runs in the background: wait for its result (the file rewritten), not a time.
    await eventually(() => lines(path).length < 20, 'the state file compacted');
    expect(readStateFile(path)!.clock).toBe(a.service.clock.now());
  });
});

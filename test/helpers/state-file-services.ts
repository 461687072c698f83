// Services on state files in a temporary folder of their own, closed after each test of the calling
// file (the folder is removed after all of them).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';
import { coreClient } from './core-client.ts';

export function stateFileServices(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const services: { stateFile: { close(): void } | undefined }[] = [];
  afterEach(() => {
    for (const s of services.splice(0)) s.stateFile?.close();
  });
  /** A core client whose service keeps its state in `path`. */
  function open(path: string, options: Parameters<typeof coreClient>[0] = {}) {
    const client = coreClient({ stateFile: path, ...options });
    services.push(client.service);
    return client;
  }
  /** Marks a client whose state file the test closed itself: it is not closed again. */
  function closedByTest(client: ReturnType<typeof open>): void {
    services.splice(services.indexOf(client.service), 1);
  }
  return { dir, open, closedByTest };
}

/** The first line of a version-2 state file as the mock writes it, with `fields` changed. */
export function stateFileHeader(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    format: 'videotask-mock-state',
    version: 2,
    seed: 1,
    secret: 'kept',
    starts: 1,
    clock: 0,
    generation: 0,
    familyBound: false,
    ...fields,
  };
}

// The slice of the mock's API the benchmarks use, and how to load it.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { startMockServer } from '../../mocks/index.ts';

export interface MockModule {
  startMockServer: typeof startMockServer;
}

/** The API key and model every benchmark request uses (built into the mock). */
export const apiKey = 'sk-mock-alice';
export const authHeaders = { authorization: `Bearer ${apiKey}` } as const;
export const model = 'video-pro-v1';

/** Imports mocks/index.ts, with a clear error when it is missing or does not export startMockServer. */
export async function loadMock(): Promise<MockModule> {
  if (!existsSync(fileURLToPath(new URL('../../mocks/index.ts', import.meta.url)))) {
    throw new Error('mocks/index.ts does not exist');
  }
  const loaded = await import('../../mocks/index.ts');
  if (typeof loaded.startMockServer !== 'function')
    throw new Error('mocks/index.ts does not export startMockServer');
  return loaded;
}

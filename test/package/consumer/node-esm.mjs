// A plain Node ESM script, as a client team writes one: the mock in-process through msw, the typed
// client against it (its video downloaded by videotask/node), and the spec's and the contract suite's
// entries loaded. Prints what it saw as one JSON line.
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setupServer } from 'msw/node';
import { VideoTaskClient } from 'videotask';
import { runContract } from 'videotask/contracts';
import { createHandlers, createMockService } from 'videotask/mocks';
import { downloadContent } from 'videotask/node';
import { serviceContract } from 'videotask/spec';

const service = createMockService({ clock: { mode: 'manual' }, seed: 1 });
const server = setupServer(...createHandlers(service));
server.listen({ onUnhandledRequest: 'error' });
const client = new VideoTaskClient({ baseUrl: 'https://video.example', apiKey: 'sk-mock-alice' });
const submitted = await client.submit({ model: 'video-pro-v1', prompt: 'a red kite' });
service.clock.advance(10 * 60_000);
const done = await client.getVideo(submitted.id);
const to = join(mkdtempSync(join(tmpdir(), 'videotask-esm-')), 'video.mp4');
const download = await downloadContent(client, submitted.id, { to });
server.close();
const box = readFileSync(to).subarray(4, 8).toString('latin1');
console.log(
  JSON.stringify({
    submitted: submitted.status,
    done: done.status,
    bytes: download.bytes,
    box,
    runContract: typeof runContract,
    stopPolling: serviceContract().lifecycle.stopPolling.values,
  }),
);

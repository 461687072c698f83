// docs/mock.md: begin
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { SubmissionUnconfirmedError, VideoTaskClient, submitWithRetry } from '../../src/index.ts';
import { createHandlers, createMockService } from '../../mocks/index.ts';

const BASE = 'http://video.test';
const service = createMockService({ clock: { mode: 'manual' } });
const server = setupServer(...createHandlers(service));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => service.reset());
afterAll(() => server.close());

// Your client here; VideoTaskClient stands in for it.
const client = new VideoTaskClient({
  baseUrl: BASE,
  apiKey: 'sk-mock-alice',
  requestTimeoutMs: 500,
});

it.each(['lost-answer', 'lost-answer:2'])(
  'creates no second task when the answer to a submission is lost (%s, §7)',
  async (scenario) => {
    const clientRequestId = crypto.randomUUID(); // what your idempotency records keep
    const body = { model: 'video-pro-v1', prompt: `a red kite [mock:${scenario}]` };
    const submission = submitWithRetry(
      (id, signal) => client.submit(body, { clientRequestId: id, signal }),
      { clientRequestId },
    );

    // No answer (dropped, or later than the client waits): the outcome is unknown, not a failure.
    await expect(submission).rejects.toBeInstanceOf(SubmissionUnconfirmedError);

    // The task exists all the same; a client that resubmitted now would have made a second one.
    const listed = await fetch(`${BASE}/__mock/tasks?owner=alice`);
    const { tasks } = (await listed.json()) as { tasks: { id: string }[] };
    expect(tasks).toHaveLength(1);
  },
);
// docs/mock.md: end

const SECTION = '"Rehearsing a lost submission answer"';

it(`is the test docs/mock.md shows under ${SECTION} (imports from the package)`, async () => {
  const { readFileSync } = await import('node:fs');
  const BEGIN = '// docs/mock.md: begin\n';
  const source = readFileSync(new URL(import.meta.url), 'utf8');
  const shown = source
    .slice(source.indexOf(BEGIN) + BEGIN.length, source.indexOf('// docs/mock.md: end'))
    .replace("from '../../src/index.ts'", "from 'videotask'")
    .replace("from '../../mocks/index.ts'", "from 'videotask/mocks'");
  const guide = readFileSync(new URL('../../docs/mock.md', import.meta.url), 'utf8');
  expect(guide).toContain(`\`\`\`ts\n${shown}\`\`\``);
});

// Issue 33 item 9: a scenario argument was kept whole: `[mock:unknown:000…5]` (256 KB of zeros, a
// valid 5 s) was kept at full length with its task, so 300 submissions added 325 MB of memory and
// 240 MB of state file. An argument is now bounded once, where the scenario is chosen (at most 64
// characters; past that a 400 naming the limit, nothing created), and kept in its canonical form
// (`0005` → `5`), which fits in the task's ID: nothing of it goes to the state file's extras.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { killMockProcesses, listening, spawnMock } from '../helpers/mock-process.ts';
import { stateFileServices } from '../helpers/state-file-services.ts';

afterEach(killMockProcesses);
const { dir, open } = stateFileServices('videotask-scenario-args-');
/** The bound (mocks/core/plan/scenarios.ts MAX_SCENARIO_ARGUMENT), written out: the test predates it. */
const MAX_SCENARIO_ARGUMENT = 64;
const LONG = 256 * 1024; // under the body limit (1 MiB): the tag itself is what is long

describe('a scenario argument past the bound, over HTTP (a real mock process)', () => {
  it('is a 400 naming the limit, in a prompt tag or the header, and creates nothing', async () => {
    const mock = spawnMock('--port', '0', '--clock', 'manual');
    const base = await listening(mock, /secret: .*\n/);
    const post = (prompt: string, headers: Record<string, string> = {}) =>
      fetch(`${base}/v1/videos`, {
        method: 'POST',
        headers: {
          authorization: 'Bearer sk-mock-alice',
          'content-type': 'application/json',
          ...headers,
        },
        body: JSON.stringify({ model: 'video-pro-v1', prompt }),
      });
    const refusals = [
      await post(`a kite [mock:unknown:${'0'.repeat(LONG)}5]`),
      await post('a kite', { 'x-mock-scenario': `unknown:${'0'.repeat(12 * 1024)}5` }),
    ];
    for (const refused of refusals) {
      expect(refused.status).toBe(400);
      // The mock's own errors come in the OpenAI envelope.
      const { error: body } = (await refused.json()) as {
        error: { code: string; message: string };
      };
      expect(body.code).toBe('invalid_scenario_argument');
      expect(body.message).toMatch(
        /the argument of unknown is \d+ characters long: at most 64 are accepted/,
      );
      expect(body.message.length).toBeLessThan(300);
    }
    // An unknown name as long is named cut short, not echoed whole.
    const unknown = await post(`[mock:${'x'.repeat(LONG)}]`);
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(await unknown.json()).length).toBeLessThan(1000);
    expect((await post(`[mock:unknown:${'0'.repeat(MAX_SCENARIO_ARGUMENT - 1)}5]`)).status).toBe(
      200,
    );
    const listing = (await (await fetch(`${base}/__mock/tasks`)).json()) as {
      tasks: { plan: { scenario: string } }[];
    };
    expect(listing.tasks.map((t) => t.plan.scenario)).toEqual(['unknown:5']);
  });
});

describe('scenario arguments kept with tasks', () => {
  it('are kept canonical: 300 submissions of a long way to write 5 s add nothing to the state file', () => {
    const path = join(dir, 'args.state');
    const client = open(path);
    const longFive = `${'0'.repeat(MAX_SCENARIO_ARGUMENT - 3)}5.0`;
    for (let n = 0; n < 300; n++) {
      const answer = client.call('POST', '/v1/video/generations', {
        body: { model: 'video-pro-v1', prompt: `a kite ${n} [mock:unknown:${longFive}]` },
      });
      expect(answer.status).toBe(200);
    }
    client.service.stateFile!.close();
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain(longFive);
    // A task of the default scenario costs about as much: nothing of the argument is kept beside it.
    expect(statSync(path).size / 300).toBeLessThan(400);
  });
});

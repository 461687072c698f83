import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sampleVideo } from '../../mocks/core/http/media.ts';
import { LISTENING, listening, spawnMock } from '../helpers/mock-process.ts';
import type { RawServer } from '../helpers/raw-server.ts';
import { rewritingProxy } from '../helpers/rewriting-proxy.ts';
import {
  FAST,
  SECRET,
  readRecord,
  verifyFamily,
  verifyFamilyFixture,
} from '../helpers/verify-family.ts';

const { mock, freshDir } = verifyFamilyFixture();
const proxies: RawServer[] = [];
afterAll(() => Promise.all(proxies.map((p) => p.close())));

const OTHER_RATIOS = 'X-New-Api-Other-Ratios';

describe("videotask verify-family against the gateway's habits (reference gateway facts)", () => {
  it(
    'against `videotask mock --family-bound --profile observed`: passes and reports the charge ' +
      'fields the gateway exposes, raw',
    async () => {
      const handle = spawnMock(
        '--port',
        '0',
        '--speed',
        '100',
        '--family-bound',
        '--profile',
        'observed',
      );
      try {
        const url = await listening(handle, LISTENING);
        const cwd = freshDir('spawned');
        const run = await verifyFamily(
          url,
          'sk-mock-vip',
          ['--model', 'alt-video-v2-fast', '--plugin-name', 'alt-video', ...FAST],
          cwd,
        );
        expect(run.code).toBe(0);
        const { run: record } = readRecord(join(cwd, 'verification-records'));
        const m = record.models[0]!;
        expect(m).toMatchObject({
          ok: true,
          finalStatus: 'completed',
          bytes: 6592,
          sha256: sampleVideo().sha256,
        });
        // The observed gateway's wrapper carries `quota` in `data` and the upstream's raw body (with its
        // `usage`) in `data.data`; the plugin's native path carries `usage`.
        expect(m.usage.exposed).toBe(true);
        expect(Object.keys(m.usage.fields).sort()).toEqual([
          'native.usage',
          'wrapper.data.data.usage',
          'wrapper.data.quota',
        ]);
        expect(m.steps.find((s) => s.name === 'usage and charge')).toMatchObject({
          outcome: 'passed',
          detail: expect.stringMatching(/wrapper\.data\.quota = [\d.]+/) as unknown,
        });
        const tasks = (await (await fetch(`${url}/__mock/tasks`)).json()) as {
          tasks: { model: string }[];
        };
        expect(tasks.tasks.map((t) => t.model)).toEqual(['alt-video-v2-fast']);
      } finally {
        handle.child.kill('SIGTERM');
      }
    },
  );

  it(`reports the submission answer's ${OTHER_RATIOS} in both records and on the console`, async () => {
    const server = await mock({ profile: 'observed', familyBound: true });
    const cwd = freshDir('ratios');
    const run = await verifyFamily(
      server.url,
      'sk-mock-vip',
      ['--model', 'alt-video-v2', ...FAST],
      cwd,
    );
    expect(run.code).toBe(0);
    const { run: record, md } = readRecord(join(cwd, 'verification-records'));
    const ratios = record.models[0]!.otherRatios!;
    expect(ratios).toMatch(/"seconds"/);
    expect(record.models[0]!.steps[1]!.detail).toContain(`; ${OTHER_RATIOS} ${ratios}`);
    expect(md).toContain(
      `Billing header of the submission answer (${OTHER_RATIOS}, raw): ${ratios}`,
    );
    expect(run.stdout).toMatch(new RegExp(`^alt-video-v2 +passed .*; ${OTHER_RATIOS} `, 'm'));
    expect(run.stdout).toContain(`${OTHER_RATIOS} ${ratios}`);
    expect(run.stderr).toMatch(new RegExp(`step 3: submitted task_\\w+ .*; ${OTHER_RATIOS} `));
  });

  it('masks the key and shows control characters a server sent as escapes, never acting', async () => {
    const server = await mock({ familyBound: true });
    // The header carries the key (a server may echo it, §5) and an 8-bit CSI; a model ID carries ESC.
    const proxy = await rewritingProxy(server.url, (request, answer) => {
      if (request.method === 'POST' && request.path === '/v1/videos')
        answer.headers['x-new-api-other-ratios'] = `{"seconds":"4","key":"${SECRET}"}\x9b2J`;
      if (request.path === '/v1/models') {
        const list = JSON.parse(answer.body.toString()) as { data: { id: string }[] };
        list.data = list.data.filter((m) => m.id !== 'alt-video-v2.5');
        list.data.unshift({ ...list.data[0]!, id: 'evil\x1b[2J' });
        answer.body = Buffer.from(JSON.stringify(list));
      }
    });
    proxies.push(proxy);
    const cwd = freshDir('escapes');
    // alt-video-v2.5 is a second-family ID the catalog leaves out: step 3 fails, naming what it lists.
    const models = ['--model', 'alt-video-v2', '--model', 'alt-video-v2.5'];
    const run = await verifyFamily(proxy.url, SECRET, [...models, ...FAST], cwd);
    expect(run.code).toBe(1);
    const { run: record, md, raw } = readRecord(join(cwd, 'verification-records'));
    expect(record.models[0]!.otherRatios).toBe('{"seconds":"4","key":"sk-…6789"}\x9b2J');
    expect(run.stdout).toContain(`${OTHER_RATIOS} {"seconds":"4","key":"sk-…6789"}\\u009b2J`);
    expect(run.stdout).toMatch(/^alt-video-v2\.5 +FAILED .*\(it lists evil\\u001b\[2J, /m);
    for (const shown of [run.stdout, run.stderr]) expect(shown).not.toMatch(/[\x1b\x9b]/);
    expect(run.stdout + run.stderr + raw + md).not.toContain(SECRET);
  });
});

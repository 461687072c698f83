import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sampleVideo } from '../../mocks/core/http/media.ts';
import { FAST, submitArgs, taskCliFixture } from '../helpers/task-cli.ts';

const { videotask, submitted, dir } = taskCliFixture();

describe('submit, status, wait, download', () => {
  it('submits, shows, waits for and downloads a task', async () => {
    const submit = await videotask(
      submitArgs('video-pro-v1', 'a kite', '--metadata', '{"duration":5}', '--endpoint', 'videos'),
    );
    expect(submit.code).toBe(0);
    const id = submit.stdout.trim();
    expect(id).toMatch(/^task_[0-9A-Za-z]{32}$/);
    const status = await videotask(['status', id, '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ id, model: 'video-pro-v1' });
    expect((await videotask(['status', id, '--wrapper'])).stdout).toMatch(
      new RegExp(`^${id}  (QUEUED|IN_PROGRESS|SUCCESS)`),
    );
    const waited = await videotask(['wait', id, ...FAST]);
    expect(waited.code).toBe(0);
    expect(waited.stdout).toMatch(new RegExp(`${id} completed 100%`));
    const file = join(dir(), 'video.mp4');
    const downloaded = await videotask(['download', id, '-o', file]);
    expect(downloaded.code).toBe(0);
    const sha = createHash('sha256').update(readFileSync(file)).digest('hex');
    expect(sha).toBe(sampleVideo().sha256);
    expect(downloaded.stdout.trim()).toBe(`${sha}  ${file}`);
    expect((await videotask(['download', id, '-o', file])).code).toBe(2);
    expect((await videotask(['download', id, '-o', file, '--force'])).code).toBe(0);
  });

  it('exits 1 with the error code for a failed task, and 3 when the wait times out', async () => {
    const failed = await submitted('video-pro-v1', 'x [mock:fail:ContentPolicy]');
    const waitFailed = await videotask(['wait', failed, ...FAST]);
    expect(waitFailed.code).toBe(1);
    expect(waitFailed.stdout).toMatch(/failed 100% .* error ContentPolicy/);
    const stuck = await submitted('video-pro-v1', 'x [mock:stuck]');
    const waitStuck = await videotask(['wait', stuck, ...FAST, '--poll-timeout', '0.5']);
    expect(waitStuck.code).toBe(3);
    expect(waitStuck.stderr).toMatch(/wait again later .* Do not resubmit/);
  });

  it('leaves no file when a download fails, and says why', async () => {
    const id = await submitted('video-pro-v1', 'x [mock:slow]');
    const file = join(dir(), 'early.mp4');
    const early = await videotask(['download', id, '-o', file]);
    expect(early.code).toBe(1);
    expect(early.stderr).toMatch(/not completed yet/);
    expect(early.stderr).toContain(
      `→ not finished yet (or failed): wait for it first (\`videotask wait ${id}\`)`,
    );
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(dir()).filter((f) => f.includes('.part'))).toEqual([]);
  });
});

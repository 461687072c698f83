import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { createHandlers, createMockService } from '../../mocks/index.ts';
import { BadRequestError, UnexpectedResponseError, type ApiError } from '../../src/client/index.ts';
import { downloadContent } from '../../src/node/index.ts';
import { TOKENS, VIDEO, mswClient, rejection, scratchDir } from '../client/client-fixture.ts';

const { service, msw, seen, client, submitFresh } = mswClient();
const { path, fresh } = scratchDir();

describe('downloadContent (videotask/node) in-process (msw)', () => {
  it('downloads a completed video to a file', async () => {
    const { id } = await submitFresh();
    service().clock.advance(120_000);
    const target = join(await fresh(), 'kite.mp4');
    const progress: [number, number | undefined][] = [];
    const result = await downloadContent(client(), id, {
      to: target,
      onProgress: (received, total) => progress.push([received, total]),
    });
    const written = await readFile(target);
    expect(new Uint8Array(written)).toEqual(VIDEO.bytes);
    expect(result).toEqual({
      bytes: VIDEO.bytes.byteLength,
      sha256: VIDEO.sha256,
      contentType: 'video/mp4',
      path: target,
    });
    expect(createHash('sha256').update(written).digest('hex')).toBe(result.sha256);
    expect(progress.at(-1)).toEqual([VIDEO.bytes.byteLength, VIDEO.bytes.byteLength]);
    expect(await readdir(join(target, '..'))).toEqual(['kite.mp4']);
  });

  it('follows a redirect to the temporary address', async () => {
    const redirecting = createMockService({
      clock: { mode: 'manual' },
      seed: 'redirect',
      tokens: TOKENS,
      contentRedirect: true,
    });
    msw.use(...createHandlers(redirecting));
    const { id } = await submitFresh();
    redirecting.clock.advance(120_000);
    const target = join(await fresh(), 'kite.mp4');
    const result = await downloadContent(client(), id, { to: target });
    expect(result.sha256).toBe(VIDEO.sha256);
    expect(new Uint8Array(await readFile(target))).toEqual(VIDEO.bytes);
    expect(seen.map((r) => new URL(r.url).pathname)).toEqual([
      `/v1/video/generations`,
      `/v1/videos/${id}/content`,
      `/__artifacts/${id}.mp4`,
    ]);
  });

  it('throws BadRequestError before completion and writes no file', async () => {
    const { id } = await submitFresh();
    const folder = await fresh();
    const error = await rejection(downloadContent(client(), id, { to: join(folder, 'kite.mp4') }));
    expect(error).toBeInstanceOf(BadRequestError);
    const notCompleted = 'Task is not completed yet, current status: QUEUED';
    expect(error.message).toMatch(
      new RegExp(
        `^Failed to download the video of task_\\w+: ${notCompleted} \\(HTTP 400, task_not_completed\\)$`,
      ),
    );
    expect((error as ApiError).serviceRequestId).toBeDefined();
    expect(await readdir(folder)).toEqual([]);
  });

  it('keeps an existing target when the download is refused', async () => {
    const { id } = await submitFresh();
    const target = join(await fresh(), 'kite.mp4');
    await writeFile(target, 'the old video');
    await expect(downloadContent(client(), id, { to: target })).rejects.toBeInstanceOf(
      BadRequestError,
    );
    expect(await readFile(target, 'utf8')).toBe('the old video');
    expect(await readdir(join(target, '..'))).toEqual(['kite.mp4']);
  });

  it('throws UnexpectedResponseError for a 200 JSON answer and writes no file', async () => {
    msw.use(
      http.get('*/v1/videos/:id/content', () =>
        HttpResponse.json({ error: { message: 'use the url instead' } }),
      ),
    );
    const folder = await fresh();
    const error = await rejection(
      downloadContent(client(), 'task_x', { to: join(folder, 'kite.mp4') }),
    );
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error.message).toMatch(
      /answered 200 with application\/json instead of a video stream \(§4\.4\): use the url instead/,
    );
    expect(await readdir(folder)).toEqual([]);
  });

  it('downloads to a writable stream and ends it', async () => {
    const { id } = await submitFresh();
    service().clock.advance(120_000);
    const chunks: Buffer[] = [];
    let finished = false;
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
      final(callback) {
        finished = true;
        callback();
      },
    });
    const result = await downloadContent(client(), id, { to: sink });
    expect(new Uint8Array(Buffer.concat(chunks))).toEqual(VIDEO.bytes);
    expect(result).toEqual({
      bytes: VIDEO.bytes.byteLength,
      sha256: VIDEO.sha256,
      contentType: 'video/mp4',
    });
    expect(finished).toBe(true);
  });

  it("throws the file system's error for a missing directory", async () => {
    const { id } = await submitFresh();
    service().clock.advance(120_000);
    const error = await rejection(
      downloadContent(client(), id, { to: join(path(), 'no-such-dir', 'kite.mp4') }),
    );
    expect((error as NodeJS.ErrnoException).code).toBe('ENOENT');
  });

  it('removes the temporary file when onProgress throws', async () => {
    const { id } = await submitFresh();
    service().clock.advance(120_000);
    const folder = await fresh();
    const error = await rejection(
      downloadContent(client(), id, {
        to: join(folder, 'kite.mp4'),
        onProgress: () => {
          throw new Error('stop');
        },
      }),
    );
    expect(error.message).toBe('stop');
    expect(await readdir(folder)).toEqual([]);
  });
});

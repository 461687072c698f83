import { performance } from 'node:perf_hooks';
import type { VideoTaskClient } from '../../src/client/index.ts';
import { downloadContent, type DownloadResult } from '../../src/node/download-content.ts';
import { KNOWN_CONTAINERS, videoSignature } from '../../src/media/video-signature.ts';
import { ADVICE } from './advice.ts';
import { elapsed } from './elapsed.ts';
import { messageOf } from './error-facts.ts';
import { HeadSink } from './head-sink.ts';
import type { StepRecorder } from './step-recorder.ts';

/** Bytes kept from the start of the video: enough for every container signature we know. */
const HEAD_BYTES = 512;

/**
 * §9 step 4: the video downloaded through `/content` (§4.4), counted and hashed but not kept, and its
 * first bytes checked for a video container signature.
 */
export async function downloadVideo(
  client: VideoTaskClient,
  r: StepRecorder,
  taskId: string,
  signal: AbortSignal,
): Promise<void> {
  const { record } = r;
  const head = new HeadSink(HEAD_BYTES);
  const started = performance.now();
  let result: DownloadResult;
  try {
    result = await downloadContent(client, taskId, { to: head, signal });
  } catch (error) {
    record.timings.downloadMs = elapsed(started);
    const advice = signal.aborted ? ADVICE.interrupted(taskId) : ADVICE.download(taskId);
    const detail = `GET /v1/videos/${taskId}/content failed: ${messageOf(error)}`;
    r.fail('download', detail, advice, error);
    r.step('video').detail = 'not reached: the download failed';
    return;
  }
  record.timings.downloadMs = elapsed(started);
  Object.assign(record, {
    bytes: result.bytes,
    sha256: result.sha256,
    contentType: result.contentType,
  });
  const { bytes, contentType, sha256 } = result;
  const took = `in ${record.timings.downloadMs} ms`;
  r.pass('download', `GET /v1/videos/${taskId}/content: ${bytes} bytes of ${contentType} ${took}`);
  const signature = videoSignature(head.bytes());
  record.containerSignature = signature ?? null;
  if (signature !== undefined && bytes > 0)
    r.pass('video', `${signature}, ${bytes} bytes, sha256 ${sha256}`);
  else {
    const what = `${bytes} bytes of ${contentType}`;
    const why = `without a video container signature (${KNOWN_CONTAINERS})`;
    r.fail('video', `${what} ${why}`, ADVICE.notVideo);
  }
  const shownSignature = signature ?? 'no video signature';
  r.log(`step 4: downloaded ${bytes} bytes, ${shownSignature}, sha256 ${sha256}`);
}

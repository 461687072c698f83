// One mock server over real HTTP for a node-server test file, and the ways its tests talk to it.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, expect } from 'vitest';
import { startMockServer, type RunningMockServer } from '../../../mocks/index.ts';
import { sampleVideo } from '../../../mocks/core/http/media.ts';
import { expectConformant, seenBytes, type SeenResponse } from '../../helpers/conformance.ts';

export const VIDEO = sampleVideo().bytes;
export const SIZE = VIDEO.byteLength;
export const MAX_BODY = 1024;
export const JSON_HEADERS = { 'content-type': 'application/json' };
export const AFTER_COMPLETION = 120_000;

/** The file's server, set by `useNodeServer` before its tests run (ES module bindings are live). */
export let server: RunningMockServer;

/** Starts the server before the calling file's tests and closes it after them. */
export function useNodeServer(): void {
  beforeAll(async () => {
    server = await startMockServer({
      port: 0,
      clock: { mode: 'manual' },
      seed: 1,
      maxBodyBytes: MAX_BODY,
    });
  });
  afterAll(() => server.close());
}

export interface Answer extends SeenResponse {
  readonly headers: IncomingHttpHeaders | Headers;
  header(name: string): string | null;
  readonly bytes: Uint8Array;
}

/** fetch with alice's key unless `key` says otherwise (`null`: no key). */
export async function call(
  path: string,
  init: RequestInit & { key?: string | null } = {},
): Promise<Answer> {
  const { key = 'sk-mock-alice', ...rest } = init;
  const headers = new Headers(rest.headers);
  if (key !== null) headers.set('authorization', `Bearer ${key}`);
  const response = await fetch(path.startsWith('http') ? path : `${server.url}${path}`, {
    ...rest,
    headers,
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const seen = seenBytes(response.status, response.headers.get('content-type') ?? '', bytes);
  return {
    ...seen,
    headers: response.headers,
    header: (name) => response.headers.get(name),
    bytes,
  };
}

/** node:http, for what fetch will not send as is (raw paths, chunked bodies without a length). */
export function raw(
  method: string,
  path: string,
  options: { headers?: Record<string, string>; chunks?: readonly Uint8Array[] } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${server.url}${path}`,
      {
        method,
        agent: false,
        headers: { authorization: 'Bearer sk-mock-alice', ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const bytes = new Uint8Array(Buffer.concat(chunks));
          const seen = seenBytes(res.statusCode ?? 0, res.headers['content-type'] ?? '', bytes);
          resolve({
            ...seen,
            headers: res.headers,
            header: (name) => String(res.headers[name.toLowerCase()] ?? '') || null,
            bytes,
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    for (const chunk of options.chunks ?? []) req.write(chunk);
    req.end();
  });
}

/** Writes raw bytes on a TCP connection and returns everything the server sends back before closing. */
export function rawSocket(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => socket.write(text));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

export const submitBody = (body: unknown) => ({
  method: 'POST',
  headers: JSON_HEADERS,
  body: JSON.stringify(body),
});

export async function submit(): Promise<string> {
  const answer = await call(
    '/v1/video/generations',
    submitBody({ model: 'video-pro-v1', prompt: 'a red kite' }),
  );
  expectConformant('createVideoGeneration', answer);
  expect(answer.status).toBe(200);
  return (answer.body as { id: string }).id;
}

export async function completedTask(): Promise<{ id: string; url: string }> {
  const id = await submit();
  server.service.clock.advance(AFTER_COMPLETION);
  const task = await call(`/v1/videos/${id}`);
  expectConformant('getVideo', task);
  const body = task.body as { status: string; metadata: { url: string } };
  expect(body.status).toBe('completed');
  return { id, url: body.metadata.url };
}

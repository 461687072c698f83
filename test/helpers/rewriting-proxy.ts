import type { IncomingMessage } from 'node:http';
import { rawServer, type RawServer } from './raw-server.ts';

/** One answer as the proxy passes it on. */
export interface ProxiedAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * Headers that describe one hop's framing, not the answer: the proxy sets its own (and passes bodies on
 * decoded, so without their content encoding).
 */
const HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-encoding',
]);

async function bodyOf(req: IncomingMessage): Promise<Uint8Array<ArrayBuffer> | null> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length === 0 ? null : new Uint8Array(Buffer.concat(chunks));
}

/**
 * A server on 127.0.0.1 that forwards every request to `target` and lets `rewrite` change the answer
 * first: a deployment that says what the mock never would (a header, a model ID), everything else real.
 */
export function rewritingProxy(
  target: string,
  rewrite: (request: { method: string; path: string }, answer: ProxiedAnswer) => void,
): Promise<RawServer> {
  return rawServer((req, res) => {
    void (async () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([name]) => name !== 'host' && !HOP_HEADERS.has(name)),
      ) as Record<string, string>;
      const upstream = await fetch(`${target}${req.url}`, {
        method: req.method!,
        headers,
        body: await bodyOf(req),
        redirect: 'manual',
      });
      const answer: ProxiedAnswer = {
        status: upstream.status,
        headers: Object.fromEntries(
          [...upstream.headers].filter(([name]) => !HOP_HEADERS.has(name)),
        ),
        body: Buffer.from(await upstream.arrayBuffer()),
      };
      rewrite({ method: req.method!, path: req.url! }, answer);
      res.writeHead(answer.status, answer.headers).end(answer.body);
    })().catch((error: unknown) => {
      res.writeHead(502, { 'content-type': 'text/plain' }).end(String(error));
    });
  });
}

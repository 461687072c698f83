import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PaddingProxy {
  readonly url: string;
  /** Requests forwarded so far. */
  readonly requests: () => number;
  close(): Promise<void>;
}

/**
 * A deployment that conforms but talks a lot: a real HTTP server on 127.0.0.1 in front of `target`
 * that forwards every request and pads every JSON object it answers, with a `padding` field, to
 * `size` bytes (issue 24 item 6: answers padded to 1 MiB grew the contract runner to 2.35 GB after 63
 * requests).
 */
export async function startPaddingProxy(target: string, size: number): Promise<PaddingProxy> {
  const padding = 'x'.repeat(size);
  let requests = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests++;
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers))
        if (name !== 'host' && name !== 'connection' && typeof value === 'string')
          headers.set(name, value);
      const body = chunks.length === 0 ? null : Buffer.concat(chunks);
      fetch(new URL(request.url ?? '/', target), {
        method: request.method ?? 'GET',
        headers,
        body,
        redirect: 'manual',
      })
        .then(async (answer) => {
          let bytes: Uint8Array = new Uint8Array(await answer.arrayBuffer());
          const type = answer.headers.get('content-type') ?? '';
          if (/json/.test(type) && bytes[0] === 0x7b) {
            const text = new TextDecoder().decode(bytes);
            const fill = padding.slice(0, Math.max(0, size - bytes.byteLength - 14));
            bytes = new TextEncoder().encode(`{"padding":"${fill}",${text.slice(1)}`);
          }
          const out: Record<string, string> = {};
          answer.headers.forEach((value, name) => {
            if (!['content-length', 'content-encoding', 'transfer-encoding'].includes(name))
              out[name] = value;
          });
          response.writeHead(answer.status, { ...out, 'content-length': bytes.byteLength });
          response.end(bytes);
        })
        .catch(() => response.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

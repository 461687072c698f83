import { request } from 'node:http';
import { rawServer, type RawServer } from './raw-server.ts';

/**
 * A server on 127.0.0.1 that serves `target` under a path prefix only, as an ingress does for a
 * gateway behind `/api`: `/api/v1/models` is forwarded as `/v1/models` (streamed both ways), anything
 * outside the prefix is the ingress's own 404 page (HTML). `seen` lists every path asked, as asked.
 */
export async function prefixProxy(
  target: string,
  prefix: string,
): Promise<RawServer & { readonly seen: string[] }> {
  const seen: string[] = [];
  const upstream = new URL(target);
  const server = await rawServer((req, res) => {
    const path = req.url ?? '/';
    seen.push(path);
    if (!path.startsWith(`${prefix}/`)) {
      res
        .writeHead(404, { 'content-type': 'text/html' })
        .end('<html><h1>404 Not Found</h1></html>');
      return;
    }
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: path.slice(prefix.length),
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => res.destroy());
    req.pipe(forwarded);
  });
  return { ...server, seen };
}

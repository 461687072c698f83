import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A hand-written HTTP server on 127.0.0.1, for answers the mock would never give. */
export interface RawServer {
  readonly url: string;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/** A node:http server on 127.0.0.1 port 0 with a given handler. */
export async function rawServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<RawServer> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Writes `chunk` to `res` again and again, as fast as the client reads, until the client goes away
 * (a body without end). `sent` counts the bytes handed to the socket.
 */
export function writeEndlessly(res: ServerResponse, chunk: Uint8Array, sent = { bytes: 0 }): void {
  let open = true;
  res.once('close', () => (open = false));
  const pump = (): void => {
    while (open) {
      sent.bytes += chunk.byteLength;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
  };
  pump();
}

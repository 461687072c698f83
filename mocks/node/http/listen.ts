import type { Server } from 'node:net';

/**
 * Starts `server` on `host:port` and settles once it listens, or with the error that stopped it (an
 * address in use, a host it cannot bind): the one start of every server here (the mock, the proxy).
 */
export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

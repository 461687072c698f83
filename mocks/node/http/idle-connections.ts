import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** A connection's byte count when last seen to change, and when that was (ms). */
interface Progress {
  bytes: number;
  since: number;
}

/** Connections whose answer the host holds on purpose (the lost-answer scenario): never idle. */
const held = new WeakSet<Socket>();

/**
 * Closes connections that neither read nor sent a byte for `idleMs`, an answer under way included (a
 * client that stops reading its answer: issue 14), checked every `checkMs` the way node checks its own
 * header and request timeouts: a connection goes between `idleMs` and `idleMs + checkMs` after its last
 * byte. In place of node's `server.timeout`, which arms a timer at the start of every request and
 * clears it at its end (an allocation and two timer-list updates per request, ~1.5 % of the host's
 * time under load): this reads each connection's byte counts once per check and costs a request
 * nothing. Between requests node's keep-alive timeout (5 s) still closes a connection first.
 */
export function closeWhenIdle(server: Server, idleMs: number, checkMs: number): void {
  const open = new Map<Socket, Progress>();
  server.on('connection', (socket: Socket) => {
    open.set(socket, { bytes: 0, since: performance.now() });
    socket.once('close', () => open.delete(socket));
  });
  const check = (): void => {
    const now = performance.now();
    for (const [socket, progress] of open) {
      // bytesWritten counts what was handed to the socket, sent or still queued: a client that stops
      // reading stops it growing.
      const bytes = socket.bytesRead + socket.bytesWritten;
      if (bytes !== progress.bytes || held.has(socket)) {
        progress.bytes = bytes;
        progress.since = now;
      } else if (now - progress.since >= idleMs) socket.destroy();
    }
  };
  const timer = setInterval(check, checkMs).unref();
  server.once('close', () => clearInterval(timer));
}

/**
 * Marks a connection whose answer the host holds (§7 lost-answer: it sends no byte, and the client is
 * the one meant to give up) as never idle until `release` runs.
 */
export function holdOpen(socket: Socket): () => void {
  held.add(socket);
  return () => held.delete(socket);
}

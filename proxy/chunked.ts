import type { Socket } from 'node:net';

/**
 * A body written in HTTP/1.1's chunked coding (RFC 9112 §7.1) or as it is, one piece at a time, by
 * both of the proxy's writers: its answers to clients (socket-reply.ts) and its uploads to the
 * upstream (upstream.ts).
 */

/** The last chunk, with no trailer: the end of a chunked body. */
export const LAST_CHUNK = '0\r\n\r\n';
/** Up to this, a piece is copied behind its head and framing into one buffer: one write. */
const ONE_WRITE = 64 * 1024;

export interface Piece {
  /** What goes before it and has not been written yet (an answer's head), or ''. */
  readonly before: string;
  readonly body: Buffer | undefined;
  /** The body is chunked: the piece is framed as one chunk. */
  readonly chunked: boolean;
  /** What goes after it (`LAST_CHUNK` when it ends the body), or ''. */
  readonly after: string;
}

/**
 * Writes `piece` with its framing: one buffer, one write (a status answer is one packet); a large
 * body as it is, between its framing, corked. False when the connection's buffer is full.
 */
export function writeFramed(socket: Socket, piece: Piece): boolean {
  const body = piece.body !== undefined && piece.body.length > 0 ? piece.body : undefined;
  const framed = body !== undefined && piece.chunked;
  const before = framed ? `${piece.before}${body.length.toString(16)}\r\n` : piece.before;
  const after = framed ? `\r\n${piece.after}` : piece.after;
  if (body === undefined) {
    const text = before + after;
    return text === '' ? !socket.writableNeedDrain : socket.write(text, 'latin1');
  }
  if (before === '' && after === '') return socket.write(body);
  if (body.length > ONE_WRITE) {
    socket.cork();
    if (before !== '') socket.write(before, 'latin1');
    socket.write(body);
    if (after !== '') socket.write(after, 'latin1');
    socket.uncork();
    return !socket.writableNeedDrain;
  }
  const out = Buffer.allocUnsafe(before.length + body.length + after.length);
  out.write(before, 0, 'latin1');
  body.copy(out, before.length);
  out.write(after, before.length + body.length, 'latin1');
  return socket.write(out);
}

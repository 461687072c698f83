import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { errorBody, type ProxyError } from './gateway-errors.ts';

/** After its last answer on a connection it gives up on, how long the proxy waits before closing it. */
const GRACE_MS = 2_000;

/**
 * What never becomes a request to forward is answered in JSON too, as a gateway answers: malformed
 * HTTP (400) and a request that takes too long to arrive (408), then the connection closed; a CONNECT
 * (405: the proxy stands in front of one deployment, it is no forward proxy).
 */
export function answerOutsideRequests(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const timeout = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    answerAndClose(socket, {
      status: timeout ? 408 : 400,
      code: timeout ? 'request_timeout' : 'bad_request',
      message: timeout ? 'The request did not arrive in time' : 'Malformed HTTP request',
    });
  });
  server.on('connect', (_req, socket: Socket) => {
    socket.on('error', () => socket.destroy()).resume();
    answerAndClose(socket, {
      status: 405,
      code: 'method_not_allowed',
      message:
        'CONNECT is not allowed: videotask proxy forwards requests made to it to its --upstream',
    });
  });
}

const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
};

function answerAndClose(socket: Socket, error: ProxyError): void {
  if (!socket.writable) return void socket.destroy();
  const body = errorBody(error);
  socket.end(
    `HTTP/1.1 ${error.status} ${REASONS[error.status] ?? 'Error'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  setTimeout(() => socket.destroy(), GRACE_MS).unref();
}

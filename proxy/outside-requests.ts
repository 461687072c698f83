import { STATUS_CODES, type Server } from 'node:http';
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
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return answerAndClose(socket, LATE);
    answerAndClose(socket, {
      status: 400,
      code: 'bad_request',
      message: 'Malformed HTTP request',
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

/** A request whose head did not arrive within the headers timeout (node's, and the front door's). */
export const LATE: ProxyError = {
  status: 408,
  code: 'request_timeout',
  message: 'The request did not arrive in time',
};

/** Answers `error` on a connection no request of which can be read any more, and closes it. */
export function answerAndClose(socket: Socket, error: ProxyError): void {
  if (!socket.writable) return void socket.destroy();
  const body = errorBody(error);
  socket.end(
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  setTimeout(() => socket.destroy(), GRACE_MS).unref();
}

import type { ServerResponse } from 'node:http';
import type { CoreResponse } from '../core/http-types.ts';
import { loseAnswer } from './lose-answer.ts';

/**
 * A JSON error (OpenAI envelope) answered by the node host itself, for requests the core never
 * sees; closes the connection.
 */
export function hostError(status: number, code: string, message: string): CoreResponse {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', connection: 'close' },
    body: JSON.stringify({ error: { message, type: 'invalid_request_error', code } }),
  };
}

/** The same, as raw bytes for a socket that has no ServerResponse (malformed HTTP, timeouts, CONNECT). */
export function rawError(status: number, reason: string, code: string, message: string): string {
  const body = JSON.stringify({ error: { message, type: 'invalid_request_error', code } });
  return (
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; ` +
    `charset=utf-8\r\ncontent-length: ` +
    `${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
  );
}

/**
 * Writes a core response. `then` runs once it is written, and the connection closes after it. A body's
 * length is always sent (no chunked framing); a HEAD answer keeps the length of the GET it mirrors.
 */
export function send(res: ServerResponse, response: CoreResponse, then?: () => void): void {
  if (response.lost !== undefined) return holdOrDrop(res, response, then);
  const { headers, body } = response;
  if (then !== undefined) headers['connection'] = 'close';
  if (body !== undefined && headers['content-length'] === undefined)
    headers['content-length'] = String(
      typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength,
    );
  res.writeHead(response.status, headers);
  res.end(body, then);
}

/**
 * Scenario `lost-answer` (§7): drops the connection, or holds the answer `holdMs` with the host's idle
 * timeout off for it (a held answer sends no byte, and the client is the one meant to give up).
 */
function holdOrDrop(res: ServerResponse, response: CoreResponse, then?: () => void): void {
  const { lost, ...answer } = response;
  if (lost?.holdMs !== undefined) res.socket?.setTimeout(0);
  loseAnswer(res, lost!, () => send(res, answer, then));
}

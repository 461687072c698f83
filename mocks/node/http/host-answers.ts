import { validateHeaderName, validateHeaderValue, type ServerResponse } from 'node:http';
import { hostErrorJson, hostErrorResponse } from '../../core/http/errors.ts';
import { DROPPED_HEADERS, type CoreResponse, type LostAnswer } from '../../core/http/http-types.ts';
import { holdOpen } from './idle-connections.ts';

/**
 * A JSON error answered by the node host itself, for requests the core never sees (its body:
 * mocks/core/http/errors.ts); closes the connection.
 */
export function hostError(status: number, code: string, message: string): CoreResponse {
  return hostErrorResponse(status, { code, message }, { connection: 'close' });
}

/** The same, as raw bytes for a socket that has no ServerResponse (malformed HTTP, timeouts, CONNECT). */
export function rawError(status: number, reason: string, code: string, message: string): string {
  const body = hostErrorJson(status, code, message);
  return (
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; ` +
    `charset=utf-8\r\ncontent-length: ` +
    `${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
  );
}

/**
 * How one server writes the core's answers. It keeps the last text body's length: a task polled again
 * answers the very string it answered the last time (mocks/core/render/rendered-tasks.ts keeps it), so the
 * same string compares equal at once, where counting its UTF-8 bytes again costs ~0.1 µs; another
 * string of another length differs at once too, and one of the same length from its first differing
 * character. One per server (`startMockServer`), never a module's.
 */
export class HostAnswers {
  #lastText = '';
  #lastTextLength = '0';

  /**
   * Writes a core response. `then` runs once it is written, and the connection closes after it. A
   * body's length is always sent (no chunked framing); a HEAD answer keeps the length of the GET it
   * mirrors.
   */
  readonly send = (res: ServerResponse, response: CoreResponse, then?: () => void): void => {
    if (response.lost !== undefined) return this.#holdOrDrop(res, response, then);
    const { headers, body } = response;
    if (then !== undefined) headers['connection'] = 'close';
    if (body !== undefined && headers['content-length'] === undefined)
      headers['content-length'] = this.#contentLength(body);
    if (!writeHead(res, response.status, headers)) return;
    res.end(body, then);
  };

  /** A body's length as its header says it. */
  #contentLength(body: string | Uint8Array): string {
    if (typeof body !== 'string') return String(body.byteLength);
    if (body !== this.#lastText) {
      this.#lastTextLength = String(Buffer.byteLength(body));
      this.#lastText = body;
    }
    return this.#lastTextLength;
  }

  /**
   * Scenario `lost-answer` (§7): drops the connection, or holds the answer `holdMs` with the host's
   * idle timeout off for it (a held answer sends no byte, and the client is the one meant to give up).
   */
  #holdOrDrop(res: ServerResponse, response: CoreResponse, then?: () => void): void {
    const { lost, ...answer } = response;
    const release = lost?.holdMs !== undefined && res.socket ? holdOpen(res.socket) : undefined;
    loseAnswer(res, lost!, () => {
      release?.();
      this.send(res, answer, then);
    });
  }
}

/**
 * Writes an answer's head; false when it could not and answered a JSON 500 instead. A header that
 * node refuses to send (a value with a control character or beyond Latin-1: a learned profile's header
 * that echoes the client's model name "vidéo€", a defect's) is left out and named in
 * `x-mock-dropped-headers`, rather than the whole answer replaced by a 500: the status and body are
 * the core's decision the client is tested against, and the one header the wire cannot carry as
 * such is the only part lost, in plain sight. Only a head that cannot be sent at all (a status node
 * refuses) becomes the 500 `mock_answer_invalid`. Never a thrown error: that left the client
 * unanswered. The check costs nothing on the hot path: node validates, this only reads its refusal.
 */
function writeHead(res: ServerResponse, status: number, headers: CoreResponse['headers']): boolean {
  try {
    res.writeHead(status, headers);
    return true;
  } catch {
    // What node refused is found below, header by header.
  }
  const { kept, dropped } = sendable(headers);
  if (dropped.length > 0) kept[DROPPED_HEADERS] = dropped.map(encodeURIComponent).join(', ');
  try {
    res.writeHead(status, kept);
    return true;
  } catch (error) {
    const left =
      dropped.length === 0 ? '' : `; headers it could not send either: ${kept[DROPPED_HEADERS]}`;
    const message =
      `The mock's answer could not be sent (${(error as Error).message}${left}): ` +
      'a profile or defect made a status or header HTTP cannot carry';
    const { headers: plain, body } = hostError(500, 'mock_answer_invalid', message);
    plain['content-length'] = String(Buffer.byteLength(body as string));
    res.writeHead(500, plain);
    res.end(body);
    return false;
  }
}

/** The headers node can send, and the names of those it cannot. */
function sendable(headers: CoreResponse['headers']): {
  kept: CoreResponse['headers'];
  dropped: string[];
} {
  const kept: CoreResponse['headers'] = {};
  const dropped: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    try {
      validateHeaderName(name);
      validateHeaderValue(name, value);
      kept[name] = value;
    } catch {
      dropped.push(name);
    }
  }
  return { kept, dropped };
}

/**
 * The node:http side of the `lost-answer` scenario (§7 "submission connection times out"): the task
 * exists, and its answer never arrives. Without `holdMs` the connection is destroyed unanswered;
 * with it, `deliver` runs after `holdMs` unless the client has gone by then.
 */
function loseAnswer(res: ServerResponse, lost: LostAnswer, deliver: () => void): void {
  if (lost.holdMs === undefined) {
    res.socket?.destroy();
    return;
  }
  const timer = setTimeout(deliver, lost.holdMs);
  timer.unref();
  res.once('close', () => clearTimeout(timer));
}

import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

/**
 * A client's request and the reply to it, as the proxy handles them whichever reads the connection:
 * the proxy's own front door (front-door.ts: plain requests read and answered on the socket) or node's
 * http server (everything else, `fromNode`). Node's `ServerResponse` is a `Reply` as it is.
 */
export interface ClientRequest {
  readonly method: string;
  /** The request target as sent: a path and query. */
  readonly url: string;
  /** Name, value, name, value… as sent. */
  readonly rawHeaders: readonly string[];
  /** Lower-case names, repeated values joined as node joins them. */
  readonly headers: IncomingHttpHeaders;
  /** The body as it comes, when the request has one (read by node's server); undefined: none. */
  readonly body: IncomingMessage | undefined;
}

/** The answer on its way to the client: what the proxy's forwarding and its own answers use of it. */
export interface Reply {
  readonly headersSent: boolean;
  readonly destroyed: boolean;
  readonly writableFinished: boolean;
  /** The status line and fields (name, value, name, value…): sent with the first bytes of the body. */
  writeHead(status: number, message: string, fields: string[]): unknown;
  /** False when the connection's buffer is full: wait for `drain`. */
  write(chunk: Buffer): boolean;
  end(chunk?: Buffer | string): unknown;
  /** Closes the connection: the only way to tell a client an answer broke off. */
  destroy(): unknown;
  /** 'close': the reply is over (finished, or the connection closed first). */
  on(event: 'close', listener: () => void): unknown;
  once(event: 'drain', listener: () => void): unknown;
}

/** A request node's server read: its body is the message itself. */
export function fromNode(req: IncomingMessage): ClientRequest {
  return {
    method: req.method!,
    url: req.url!,
    rawHeaders: req.rawHeaders,
    headers: req.headers,
    body: req,
  };
}

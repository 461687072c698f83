import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { CoreRequest } from '../../core/http/http-types.ts';
import type { HostView } from './host-names.ts';

const EMPTY = new Uint8Array();

/** What a request's body was to the host: its bytes (none for a GET), or too large to read. */
export type ReadBody = Uint8Array | 'too-large';

/**
 * The core's view of a node:http request, built once per request, after its body is read. A class,
 * so that every request has the same shape (the core's property reads stay monomorphic) and building
 * one allocates a single object.
 */
export class NodeCoreRequest implements CoreRequest {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly origin: string;
  readonly hostAllowed: boolean;
  readonly body: Uint8Array;
  readonly bodyTooLarge: boolean;
  readonly #socket: Socket;

  constructor(req: IncomingMessage, host: HostView, body: ReadBody = EMPTY) {
    const url = req.url!;
    const q = url.indexOf('?');
    this.method = req.method!;
    this.path = q < 0 ? url : url.slice(0, q);
    this.query = q < 0 ? '' : url.slice(q + 1);
    this.headers = req.headers as Record<string, string | undefined>;
    this.origin = host.origin;
    this.hostAllowed = host.allowed;
    this.body = body === 'too-large' ? EMPTY : body;
    this.bodyTooLarge = body === 'too-large';
    this.#socket = req.socket;
  }

  /**
   * Asked only by the control API: reading it costs a getpeername() call. A socket already gone has
   * no address, and '' is never taken for loopback.
   */
  get remoteAddress(): string {
    return this.#socket.remoteAddress ?? '';
  }
}

/** The body, or `undefined` once it grows past the limit (the rest is not buffered). */
export function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) {
        req.pause();
        resolve(undefined);
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks, size)));
    req.on('error', reject);
  });
}

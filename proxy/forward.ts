import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { BodyTap, JSON_KEPT, keptBytes } from './exchange-tap.ts';
import { upstreamTimeout, upstreamUnreachable, type ProxyError } from './gateway-errors.ts';
import { endToEnd } from './hop-by-hop.ts';
import type { Upstream } from './upstream.ts';

/** The upstream's answer to one forwarded request. */
export interface Answer {
  readonly status: number;
  readonly statusMessage: string;
  readonly rawHeaders: readonly string[];
  readonly headers: IncomingHttpHeaders;
  /** Its bytes counted, its first ones kept (a judged route's). */
  readonly tap: BodyTap;
  /** ms until its headers arrived, and until its body ended. */
  readonly waitMs: number;
  readonly ms: number;
  /** Why its body ended early, if it did. */
  readonly bodyError: string | undefined;
  /**
   * The client went away before the answer was through (it aborted a download): the upstream request
   * was cut short by the proxy, so what arrived says nothing about the deployment.
   */
  readonly abandoned: boolean;
  /**
   * The whole answer, not yet sent to the client (`hold`): the caller sends it (`release`, changed or
   * not) or drops it. Undefined when the answer went to the client as it arrived.
   */
  readonly held: Buffer | undefined;
}

export type Forwarded =
  | { readonly kind: 'answered'; readonly answer: Answer }
  | { readonly kind: 'failed'; readonly error: ProxyError };

export interface ForwardRequest {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** The client's path and query: the upstream's base path goes before it. */
  readonly pathAndQuery: string;
  /** The request's fields, when not the client's own (an injected redirect's follow-up: its content request's). */
  readonly rawHeaders?: readonly string[] | undefined;
  /** The start of the body, already read (a submission); undefined: the body is piped as it comes. */
  readonly body: Buffer | undefined;
  /** More of the body follows `body` in the request. */
  readonly bodyContinues: boolean;
  /** Read the whole answer (up to `JSON_KEPT`) before the client gets any of it: a fault may change or drop it. */
  readonly hold: boolean;
  /** Keep the answer's first bytes for the judges (a route of the API). */
  readonly judged: boolean;
  /** The most time the upstream may stay silent, ms. */
  readonly timeoutMs: number;
}

/**
 * Sends one request to the upstream and its answer back, streaming both ways: the request body as the
 * client sends it, the answer as the upstream sends it (a video is never held), each with its
 * end-to-end fields only (hop-by-hop.ts). `done` is told once: the answer (when its body has ended),
 * or the failure a gateway answers with (502: no answer; 504: silent for `timeoutMs`), which the
 * caller sends. A client that goes away aborts the upstream request.
 */
export function forward(
  upstream: Upstream,
  f: ForwardRequest,
  done: (forwarded: Forwarded) => void,
): void {
  const started = performance.now();
  const out = upstream.send(
    f.req.method!,
    f.pathAndQuery,
    endToEnd(f.rawHeaders ?? f.req.rawHeaders),
  );
  let settled = false;
  let timedOut = false;
  const settle = (forwarded: Forwarded) => {
    if (settled) return;
    settled = true;
    done(forwarded);
  };
  out.setTimeout(f.timeoutMs, () => {
    timedOut = true;
    out.destroy(new Error('upstream timeout'));
  });
  out.on('error', (error: NodeJS.ErrnoException) => {
    if (timedOut) settle({ kind: 'failed', error: upstreamTimeout(f.timeoutMs / 1000) });
    else settle({ kind: 'failed', error: upstreamUnreachable(error.code ?? error.message) });
  });
  out.on('response', (answer) => {
    receive(answer, f, { started, settle, gone: () => clientGone });
  });
  let clientGone = false;
  f.res.on('close', () => {
    if (f.res.writableFinished) return;
    clientGone = true;
    out.destroy();
  });
  // A client that breaks off its upload: the upstream request is aborted (its 'close' above).
  f.req.on('error', () => out.destroy());
  if (f.body === undefined) f.req.pipe(out);
  else if (f.bodyContinues) {
    out.write(f.body);
    f.req.pipe(out);
  } else out.end(f.body);
}

function receive(
  up: IncomingMessage,
  f: ForwardRequest,
  call: {
    readonly started: number;
    readonly settle: (forwarded: Forwarded) => void;
    readonly gone: () => boolean;
  },
): void {
  const waitMs = performance.now() - call.started;
  const tap = new BodyTap(f.judged ? keptBytes(up.headers['content-type']) : 0);
  const held = f.hold ? new Held(up, f.res) : undefined;
  up.on('data', tap.add);
  up.on('error', () => undefined); // a broken-off answer is told by 'close' below
  if (held === undefined) sendHead(f.res, up).pipe(f.res);
  const answer = (bodyError: string | undefined): Answer => ({
    status: up.statusCode!,
    statusMessage: up.statusMessage ?? '',
    rawHeaders: up.rawHeaders,
    headers: up.headers,
    tap,
    waitMs,
    ms: performance.now() - call.started,
    bodyError,
    abandoned: call.gone(),
    held: held?.whole(),
  });
  up.on('end', () => call.settle({ kind: 'answered', answer: answer(undefined) }));
  up.on('close', () => {
    if (up.complete) return;
    // Headers sent, body broken: the client can only be told by a connection closed early.
    if (held?.whole() === undefined) f.res.destroy();
    call.settle({ kind: 'answered', answer: answer("the upstream's answer broke off") });
  });
}

/** Writes the upstream's status line and end-to-end fields to the client; returns the upstream answer. */
function sendHead(res: ServerResponse, up: IncomingMessage): IncomingMessage {
  res.writeHead(up.statusCode!, up.statusMessage ?? '', endToEnd(up.rawHeaders));
  return up;
}

/**
 * An answer read whole before the client gets it, up to `JSON_KEPT` bytes; a longer one (a fault
 * asked for a video) is sent on as it comes once it outgrows that, and is no longer held.
 */
class Held {
  readonly #chunks: Buffer[] = [];
  #size = 0;
  #spilled = false;

  constructor(
    readonly up: IncomingMessage,
    readonly res: ServerResponse,
  ) {
    up.on('data', (chunk: Buffer) => {
      if (this.#spilled) return;
      this.#chunks.push(chunk);
      this.#size += chunk.length;
      if (this.#size <= JSON_KEPT) return;
      this.#spilled = true;
      sendHead(res, up);
      for (const part of this.#chunks) res.write(part);
      this.#chunks.length = 0;
      up.pipe(res);
    });
  }

  /** The whole answer, or undefined once it went to the client. */
  whole(): Buffer | undefined {
    return this.#spilled ? undefined : Buffer.concat(this.#chunks);
  }
}

/** Sends a held answer, its body `body` (changed or not), its length and end-to-end fields corrected. */
export function release(res: ServerResponse, answer: Answer, body: Buffer): void {
  const fields = endToEnd(withoutLength(answer.rawHeaders), [
    'Content-Length',
    String(body.length),
  ]);
  res.writeHead(answer.status, answer.statusMessage, fields);
  res.end(body);
}

function withoutLength(raw: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i]!.toLowerCase() !== 'content-length') out.push(raw[i]!, raw[i + 1]!);
  return out;
}

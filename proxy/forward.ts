import type { IncomingMessage } from 'node:http';
import type { AnswerHead } from './answer-reader.ts';
import type { ClientRequest, Reply } from './client-exchange.ts';
import { BodyTap, JSON_KEPT, keptBytes } from './exchange-tap.ts';
import { upstreamTimeout, upstreamUnreachable, type ProxyError } from './gateway-errors.ts';
import type { Fields } from './head-fields.ts';
import { endToEnd } from './hop-by-hop.ts';
import type {
  Upstream,
  UpstreamCall,
  UpstreamFailure,
  UpstreamListener,
  UpstreamRequest,
} from './upstream.ts';

/** The upstream's answer to one forwarded request. */
export interface Answer {
  readonly status: number;
  readonly statusMessage: string;
  /** Its fields as the upstream sent them. */
  readonly fields: Fields;
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
  readonly req: ClientRequest;
  readonly res: Reply;
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
  const relay = new Relay(f, upstream.timeoutMs, done);
  const body = framingOf(f.req);
  const stream = f.req.body;
  const call = upstream.send(
    {
      method: f.req.method,
      pathAndQuery: f.pathAndQuery,
      headers: endToEnd(f.rawHeaders ?? f.req.rawHeaders),
      body,
    },
    relay,
  );
  relay.call = call;
  f.res.on('close', () => {
    if (!f.res.writableFinished) relay.gone();
  });
  if (body === 'none' || stream === undefined) return call.end();
  // A client that breaks off its upload: the upstream request is aborted.
  stream.on('error', () => relay.gone());
  if (f.body !== undefined) call.write(f.body);
  if (f.body === undefined || f.bodyContinues) pump(stream, call);
  else call.end();
}

/** How the request's body is framed to the upstream: the client's `Content-Length` kept, else chunks. */
function framingOf(req: ClientRequest): UpstreamRequest['body'] {
  if (req.headers['content-length'] !== undefined) return 'length';
  return req.headers['transfer-encoding'] === undefined ? 'none' : 'chunked';
}

/** The client's request body on to the upstream as it comes, paused while the upstream's buffer is full. */
function pump(req: IncomingMessage, call: UpstreamCall): void {
  req.on('data', (chunk: Buffer) => {
    if (call.write(chunk)) return;
    req.pause();
    call.drained(() => req.resume());
  });
  req.on('end', () => call.end());
  req.resume();
}

/**
 * The upstream's answer on its way to the client: its head and bytes sent as they come (or held whole
 * when a fault may change it), its first bytes kept for the judges, `done` told once.
 */
class Relay implements UpstreamListener {
  call: UpstreamCall | undefined;
  readonly #started = performance.now();
  #head: AnswerHead | undefined;
  #waitMs = 0;
  #tap: BodyTap | undefined;
  /** The answer's bytes while held (`f.hold`), until it outgrows `JSON_KEPT`. */
  #held: Buffer[] | undefined;
  #heldSize = 0;
  #abandoned = false;
  #settled = false;

  constructor(
    readonly f: ForwardRequest,
    readonly timeoutMs: number,
    readonly done: (forwarded: Forwarded) => void,
  ) {}

  head(head: AnswerHead): void {
    this.#head = head;
    this.#waitMs = performance.now() - this.#started;
    this.#tap = new BodyTap(this.f.judged ? keptBytes(head.fields.get('content-type')) : 0);
    if (this.f.hold) this.#held = [];
    else sendHead(this.f.res, head);
  }

  data(chunk: Buffer): void {
    this.#tap!.add(chunk);
    if (this.#held === undefined) return this.#write(chunk);
    this.#held.push(chunk);
    this.#heldSize += chunk.length;
    if (this.#heldSize <= JSON_KEPT) return;
    // Longer than any answer a fault changes (a video asked for by a fault): sent on as it comes.
    sendHead(this.f.res, this.#head!);
    for (const part of this.#held) this.f.res.write(part);
    this.#held = undefined;
  }

  end(): void {
    if (this.#held === undefined) this.f.res.end();
    this.#settle({ kind: 'answered', answer: this.#answer(undefined) });
  }

  fail(failure: UpstreamFailure): void {
    if (!failure.started) {
      const error = failure.timeout
        ? upstreamTimeout(this.timeoutMs / 1000)
        : upstreamUnreachable(failure.why);
      return this.#settle({ kind: 'failed', error });
    }
    // Headers sent, body broken: the client can only be told by a connection closed early.
    if (this.#held === undefined) this.f.res.destroy();
    this.#settle({ kind: 'answered', answer: this.#answer("the upstream's answer broke off") });
  }

  /** The client went away before the answer was through: the upstream request is cut short. */
  gone(): void {
    if (this.#settled) return;
    this.#abandoned = true;
    this.call?.abort();
    this.fail({ why: 'the client went away', timeout: false, started: this.#head !== undefined });
  }

  #write(chunk: Buffer): void {
    if (this.f.res.write(chunk)) return;
    this.call!.pause();
    this.f.res.once('drain', () => this.call!.resume());
  }

  #answer(bodyError: string | undefined): Answer {
    const head = this.#head!;
    return {
      status: head.status,
      statusMessage: head.statusMessage,
      fields: head.fields,
      tap: this.#tap!,
      waitMs: this.#waitMs,
      ms: performance.now() - this.#started,
      bodyError,
      abandoned: this.#abandoned,
      held: this.#held === undefined ? undefined : Buffer.concat(this.#held, this.#heldSize),
    };
  }

  #settle(forwarded: Forwarded): void {
    if (this.#settled) return;
    this.#settled = true;
    this.done(forwarded);
  }
}

/** Writes the upstream's status line and end-to-end fields to the client. */
function sendHead(res: Reply, head: AnswerHead): void {
  res.writeHead(head.status, head.statusMessage, endToEnd(head.fields.rawHeaders));
}

/** Sends a held answer, its body `body` (changed or not), its length and end-to-end fields corrected. */
export function release(res: Reply, answer: Answer, body: Buffer): void {
  const fields = endToEnd(withoutLength(answer.fields), ['Content-Length', String(body.length)]);
  res.writeHead(answer.status, answer.statusMessage, fields);
  res.end(body);
}

function withoutLength(fields: Fields): string[] {
  const out: string[] = [];
  const raw = fields.rawHeaders;
  for (let i = 0; i < fields.names.length; i++)
    if (fields.names[i] !== 'content-length') out.push(raw[2 * i]!, raw[2 * i + 1]!);
  return out;
}

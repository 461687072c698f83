import type { components } from '../../../src/generated/mock-control.ts';

/** A request as the service core sees it, whichever host received it. */
export interface CoreRequest {
  readonly method: string;
  /** The path without the query string, percent-encoded as received. */
  readonly path: string;
  /** The raw query string without `?` ('' when none). */
  readonly query: string;
  /** Header names lower-cased. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body?: Uint8Array | undefined;
  /**
   * `http://host:port` as the client addressed the service (with the base path the msw handlers were
   * given, if any); used to build absolute URLs.
   */
  readonly origin: string;
  /** The peer's address, when the host knows it (loopback checks of the control API). */
  readonly remoteAddress?: string | undefined;
  /**
   * `false` when the `Host` header names neither the address the host listens on nor a loopback name
   * (DNS rebinding: the control API refuses it). Unset in-process, where there is no `Host` to check.
   */
  readonly hostAllowed?: boolean | undefined;
  /** The host stopped reading a body that outgrew the limit; `body` holds nothing. */
  readonly bodyTooLarge?: boolean | undefined;
}

export interface CoreResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body?: string | Uint8Array | undefined;
  /** The answer is lost on its way back (scenario `lost-answer`): the host drops it or holds it. */
  readonly lost?: LostAnswer | undefined;
  /**
   * Client rules this request violated (docs/client-verdicts.md): a host may fail it loudly. Built
   * when asked (a masked, readable verdict per rule, as `spec/mock-control.yaml` words it: the
   * report's `ClientVerdict`), so a host that does not ask pays nothing.
   */
  readonly clientViolations?: (() => readonly components['schemas']['ClientVerdict'][]) | undefined;
}

/**
 * §7 "submission connection times out": the task exists, its answer does not arrive. Without
 * `holdMs` the host drops the connection unanswered; with it, the host holds the answer that long
 * (real time) before sending it, so a client whose timeout is shorter gives up first.
 */
export interface LostAnswer {
  readonly holdMs?: number | undefined;
}

export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Headers on every answer of the service, set last (a learned profile cannot replace them): no
 * browser reads an answer as another type than it says, and none runs it as a page of the mock's
 * origin, whose control API drives every task (issue 33 item 3). Two plain assignments: this runs
 * on every answer.
 */
export function setAnswerSecurityHeaders(headers: Record<string, string>): void {
  headers['x-content-type-options'] = 'nosniff';
  headers['content-security-policy'] = ANSWER_POLICY;
}

const ANSWER_POLICY = "default-src 'none'; frame-ancestors 'none'; sandbox";

export function jsonResponse(
  status: number,
  value: unknown,
  headers?: Record<string, string>,
): CoreResponse {
  return jsonTextResponse(status, JSON.stringify(value), headers);
}

/** The same, with the JSON text already made (a status query's, kept by `RenderedTasks`). */
export function jsonTextResponse(
  status: number,
  text: string,
  headers?: Record<string, string>,
): CoreResponse {
  return {
    status,
    // Without extra headers (most answers) a literal: no object spread on the hot path.
    headers:
      headers === undefined
        ? { 'content-type': JSON_TYPE }
        : { 'content-type': JSON_TYPE, ...headers },
    body: text,
  };
}

/**
 * The header naming the headers a host left out of an answer because HTTP could not carry their value
 * (a learned profile's header echoing the model asked for, "vidéo€"): both hosts, the same name.
 */
export const DROPPED_HEADERS = 'x-mock-dropped-headers';

/**
 * The answer as sent to a request with this method: a HEAD answer has the GET's status and headers
 * and never a body (RFC 9110 §9.3.2). The one place a body is taken off: the service's `handle` for
 * its every answer, and the msw host for the one it makes itself (`onClientViolation: 'error'`).
 * The node host's own answers need nothing: node:http sends no body to a HEAD.
 */
export function answerTo(method: string, response: CoreResponse): CoreResponse {
  if (method !== 'HEAD' || response.body === undefined) return response;
  const { body: _dropped, ...headless } = response;
  return headless;
}

/** What a request's `Host` header means to the node host. */
export interface HostView {
  /**
   * The header is a URL authority (`host[:port]`, RFC 9112 §3.2): a name, an IPv4 or bracketed IPv6
   * address, a port up to 65535. A server answers any other value with 400 (issue 33 item 2).
   */
  readonly valid: boolean;
  /** `http://HOST` as the client addressed the mock (absolute URLs in answers), or the listening URL. */
  readonly origin: string;
  /** The header names this mock: its listening address or a loopback name, with its port (DNS rebinding). */
  readonly allowed: boolean;
}

const HOST_HEADER = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * Whether `host` is an authority a URL can hold: the characters first, then the WHATWG URL parser
 * (what every later `new URL` of the origin runs), which refuses a port past 65535, `[:::::]`,
 * `999.999.999.999` and `1.2.3.4.5`.
 */
function isAuthority(host: string): boolean {
  return HOST_HEADER.test(host) && URL.canParse(`http://${host}/`);
}
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];
const WILDCARDS = new Set(['0.0.0.0', '[::]']);

/**
 * Reads `Host` headers for one listening socket. A client keeps sending the same value, so each value
 * is judged once and remembered (up to 1,000 of them).
 */
export class HostNames {
  readonly #views = new Map<string, HostView>();
  /**
   * The value last asked about and its view: a connection sends the same Host on every request, and one
   * string compare costs less than hashing the parser's fresh string for a Map lookup.
   */
  #lastHost: string | undefined;
  #lastView: HostView = { origin: '', allowed: true, valid: true };
  readonly #literal: string;
  #own: ReadonlySet<string> = new Set();
  #fallback: HostView = { origin: '', allowed: true, valid: true };

  /** `listenHost` as given to `listen`: `127.0.0.1`, `::1`, `0.0.0.0`, a name. */
  constructor(listenHost: string) {
    this.#literal = (listenHost.includes(':') ? `[${listenHost}]` : listenHost).toLowerCase();
  }

  /** Called once listening, before the first request: the port and the listening URL. */
  listening(port: number, url: string): void {
    const names = [...LOOPBACK_NAMES, this.#literal].filter((n) => !WILDCARDS.has(n));
    // Without a port, Host means port 80, which no browser says of a page on another port: a name of
    // this mock without a port (as some tools send it) is still this mock.
    this.#own = new Set(names.flatMap((n) => [n, `${n}:${port}`]));
    this.#fallback = { origin: url, allowed: true, valid: true };
    this.#views.clear();
    this.#lastHost = undefined;
  }

  /** A request without `Host` (HTTP/1.0) comes from no browser: it is allowed. */
  view(host: string | undefined): HostView {
    if (host === undefined) return this.#fallback;
    if (host === this.#lastHost) return this.#lastView;
    let view = this.#views.get(host);
    if (view === undefined) {
      view = isAuthority(host)
        ? { origin: `http://${host}`, allowed: this.#own.has(host.toLowerCase()), valid: true }
        : // An empty Host is what a client sends for a target without authority (RFC 9112 §3.2).
          { origin: this.#fallback.origin, allowed: false, valid: host === '' };
      if (this.#views.size < 1_000) this.#views.set(host, view);
    }
    this.#lastHost = host;
    this.#lastView = view;
    return view;
  }
}

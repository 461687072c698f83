/** What a request's `Host` header means to the node host. */
export interface HostView {
  /** `http://HOST` as the client addressed the mock (absolute URLs in answers), or the listening URL. */
  readonly origin: string;
  /** The header names this mock: its listening address or a loopback name, with its port (DNS rebinding). */
  readonly allowed: boolean;
}

const HOST_HEADER = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;
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
  #lastView: HostView = { origin: '', allowed: true };
  readonly #literal: string;
  #own: ReadonlySet<string> = new Set();
  #fallback: HostView = { origin: '', allowed: true };

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
    this.#fallback = { origin: url, allowed: true };
    this.#views.clear();
    this.#lastHost = undefined;
  }

  /** A request without `Host` (HTTP/1.0) comes from no browser: it is allowed. */
  view(host: string | undefined): HostView {
    if (host === undefined) return this.#fallback;
    if (host === this.#lastHost) return this.#lastView;
    let view = this.#views.get(host);
    if (view === undefined) {
      view = HOST_HEADER.test(host)
        ? { origin: `http://${host}`, allowed: this.#own.has(host.toLowerCase()) }
        : { origin: this.#fallback.origin, allowed: false };
      if (this.#views.size < 1_000) this.#views.set(host, view);
    }
    this.#lastHost = host;
    this.#lastView = view;
    return view;
  }
}

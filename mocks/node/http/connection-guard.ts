import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** How many connections the node host keeps open at once ([decisions/014](../../decisions/014-mock-http-host.md)). */
export interface ConnectionLimits {
  /**
   * In all. Default: 10,000, or the file-descriptor limit less 256 when that is lower. Beyond it, an
   * address holding fewer than 8 connections still gets in, up to a tenth more (at most 1,000): a
   * flood from many addresses does not lock out a client that asks for one connection.
   */
  readonly maxConnections?: number | undefined;
  /** From one remote address (all of loopback's 127.0.0.1 is one). Default 1,000. */
  readonly maxConnectionsPerAddress?: number | undefined;
  /** A burst of refusals ends after this long without one (ms). Default 5,000. */
  readonly burstQuietMs?: number | undefined;
}

const RESERVED_DESCRIPTORS = 256;
/** An address with fewer connections than this is a light client: the reserve beyond the total is for it. */
const LIGHT_CLIENT = 8;

/** The soft limit on open files, from /proc (Linux); `undefined` elsewhere. */
function descriptorLimit(): number | undefined {
  try {
    const limits = readFileSync('/proc/self/limits', 'utf8');
    const soft = /^Max open files\s+(\d+)/m.exec(limits)?.[1];
    return soft === undefined ? undefined : Number(soft);
  } catch {
    return undefined;
  }
}

export function defaultMaxConnections(): number {
  const limit = descriptorLimit();
  return Math.max(16, Math.min(10_000, (limit ?? Infinity) - RESERVED_DESCRIPTORS));
}

/**
 * Bounds the server's open connections, in total (with a reserve for light clients) and per remote
 * address, and reports refusals through `log` once per burst: one line when the first is refused,
 * one with the count when none has been for `burstQuietMs`. Returns the number of connections open now.
 */
export function guardConnections(
  server: Server,
  limits: ConnectionLimits,
  log: (line: string) => void,
): () => number {
  const total = limits.maxConnections ?? defaultMaxConnections();
  const reserve = Math.min(1_000, Math.max(16, Math.round(total / 10)));
  const perAddress = limits.maxConnectionsPerAddress ?? 1_000;
  const quietMs = limits.burstQuietMs ?? 5_000;
  const byAddress = new Map<string, number>();
  let open = 0;
  const refusals = new RefusalLog(quietMs, log);

  const totalReached =
    `${total} open, the limit in all (--max-connections; 10,000 or the ` +
    `file-descriptor limit); addresses with fewer than ${LIGHT_CLIENT} ` +
    `connections still get in, up to ${reserve} more`;
  server.maxConnections = total + reserve; // node closes anything beyond before it reaches JavaScript
  server.on('drop', () => refusals.refuse(totalReached));
  server.on('connection', (socket: Socket) => {
    // A socket already reset has no address: it is counted under '' and closes at once anyway.
    const address = socket.remoteAddress ?? '';
    const held = byAddress.get(address) ?? 0;
    const why =
      held >= perAddress
        ? `${perAddress} open from ${address}, the limit for one address (--max-connections-per-address)`
        : open >= total && held >= LIGHT_CLIENT
          ? totalReached
          : undefined;
    if (why !== undefined) {
      refusals.refuse(why);
      socket.destroy();
      return;
    }
    byAddress.set(address, held + 1);
    open++;
    socket.once('close', () => {
      open--;
      const left = (byAddress.get(address) ?? 1) - 1;
      if (left === 0) byAddress.delete(address);
      else byAddress.set(address, left);
    });
  });
  server.once('close', () => refusals.stop());
  return () => open;
}

/**
 * Refusals reported once per burst: one line when the first is refused, one with the count when none
 * has been for `quietMs`.
 */
class RefusalLog {
  #refused = 0;
  #burstStart = 0;
  #lastRefusal = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    readonly quietMs: number,
    readonly log: (line: string) => void,
  ) {}

  refuse(why: string): void {
    this.#lastRefusal = Date.now();
    if (this.#refused++ > 0) return;
    this.#burstStart = this.#lastRefusal;
    this.log(
      `refusing new connections: ${why}. Further refusals are counted until ${this.quietMs / 1000} s pass without one`,
    );
    this.#timer ??= setTimeout(this.#endBurstWhenQuiet, this.quietMs).unref();
  }

  stop(): void {
    clearTimeout(this.#timer);
  }

  readonly #endBurstWhenQuiet = (): void => {
    const quietFor = Date.now() - this.#lastRefusal;
    if (quietFor < this.quietMs) {
      this.#timer = setTimeout(this.#endBurstWhenQuiet, this.quietMs - quietFor).unref();
      return;
    }
    const refused = this.#refused;
    const seconds = Math.max(1, Math.round((this.#lastRefusal - this.#burstStart) / 1000));
    this.log(
      `refused ${refused} connection${refused === 1 ? '' : 's'} over ${seconds} s; accepting again`,
    );
    this.#refused = 0;
    this.#timer = undefined;
  };
}

/**
 * Sends a last answer on a socket node:http has given up on (malformed request, header timeout) and
 * closes it: at once when the client closes too, else after `graceMs` whether it read the answer or
 * not (a client that never reads would otherwise hold the connection for ever).
 */
export function answerAndClose(socket: Socket, answer: string, graceMs: number): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const timer = setTimeout(() => socket.destroy(), graceMs).unref();
  socket.once('close', () => clearTimeout(timer));
  socket.end(answer);
}

import type { MacFunction } from './sha256.ts';
import { toHex } from './sha256.ts';

const encoder = new TextEncoder();

/**
 * Temporary result addresses (`metadata.url`, `result_url`). Like an upstream's presigned URL, one
 * carries its expiry and a signature, is served by the mock itself under `/__artifacts/`, and stops
 * working when its time to live runs out (§1: the upstream URL in the result is temporary).
 */
export class ArtifactSigner {
  /** @param mac HMAC-SHA-256 under the deployment's artifact key. */
  constructor(
    readonly mac: MacFunction,
    readonly ttlMs: number,
  ) {}

  /** The address for a task's result, valid until `expiresAt` (ms). */
  url(origin: string, taskId: string, expiresAt: number): string {
    const expires = Math.floor(expiresAt / 1000);
    return `${origin}/__artifacts/${taskId}.mp4?expires=${expires}&sig=${this.#sign(taskId, expires)}`;
  }

  /** Checks a request for an artifact: the task it names, or why it is refused. */
  verify(
    file: string,
    query: URLSearchParams,
    now: number,
  ): { ok: true; taskId: string } | { ok: false; reason: 'invalid' | 'expired'; taskId: string } {
    const taskId = file.endsWith('.mp4') ? file.slice(0, -4) : file;
    const expires = Number(query.get('expires'));
    const sig = query.get('sig') ?? '';
    if (!Number.isInteger(expires) || sig !== this.#sign(taskId, expires))
      return { ok: false, reason: 'invalid', taskId };
    if (now >= expires * 1000) return { ok: false, reason: 'expired', taskId };
    return { ok: true, taskId };
  }

  #sign(taskId: string, expires: number): string {
    return toHex(this.mac(encoder.encode(`${taskId}:${expires}`))).slice(0, 32);
  }
}

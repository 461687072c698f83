import { toHex, type HmacFactory, type MacFunction } from './sha256.ts';

const encoder = new TextEncoder();

/**
 * A deployment's secret: it keys task IDs and signed result URLs. Random unless given (replicas that
 * must answer each other's tasks share one). Independent of the seed, and never printed.
 */
export function randomSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The keys derived from a secret, one per use, so that no two uses share a key. */
export interface DeploymentKeys {
  /** Tags task IDs (`TaskIdCodec`). */
  readonly idMac: MacFunction;
  /** Encrypts task ID payloads. */
  readonly idStream: MacFunction;
  /** Signs temporary result URLs (`ArtifactSigner`). */
  readonly artifact: MacFunction;
  /** Names the secret without revealing it (a state file checks it belongs to the secret given). */
  readonly fingerprint: string;
}

export function deploymentKeys(secret: string, hmac: HmacFactory): DeploymentKeys {
  if (secret === '') throw new RangeError('The secret must not be empty');
  const root = hmac(encoder.encode(secret));
  const derive = (purpose: string): Uint8Array => root(encoder.encode(`videotask-mock/${purpose}`));
  return {
    idMac: hmac(derive('task-id/mac')),
    idStream: hmac(derive('task-id/stream')),
    artifact: hmac(derive('artifact')),
    fingerprint: toHex(derive('fingerprint')).slice(0, 16),
  };
}

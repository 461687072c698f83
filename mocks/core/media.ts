import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** The video every completed task serves: a real, playable 2 s H.264 MP4 (see mocks/media/README.md). */
export interface MediaAsset {
  readonly bytes: Uint8Array;
  readonly contentType: string;
  readonly sha256: string;
  readonly etag: string;
}

let sample: MediaAsset | undefined;

export function sampleVideo(): MediaAsset {
  if (sample === undefined) {
    const bytes = new Uint8Array(readFileSync(new URL('../media/sample.mp4', import.meta.url)));
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    sample = { bytes, contentType: 'video/mp4', sha256, etag: `"${sha256.slice(0, 32)}"` };
  }
  return sample;
}

export type RangeResult =
  | { readonly kind: 'full' }
  | { readonly kind: 'partial'; readonly start: number; readonly end: number }
  | { readonly kind: 'unsatisfiable' };

/**
 * Reads a `Range` header against a body of `size` bytes (RFC 9110 §14). A header that is malformed,
 * not in bytes, or asks for several ranges is ignored (the whole body is sent), as the RFC allows.
 */
export function parseRange(header: string | undefined, size: number): RangeResult {
  if (header === undefined) return { kind: 'full' };
  const match = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header.trim());
  if (match === null) return { kind: 'full' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'full' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return { kind: 'full' }; // invalid range-spec: ignore the header
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end };
}

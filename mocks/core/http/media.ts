import { SAMPLE_VIDEO_BASE64, SAMPLE_VIDEO_SHA256 } from '../../media/sample-video.ts';

/**
 * The video every completed task serves: a real, playable 2 s H.264 MP4 (see mocks/media/README.md),
 * embedded as a generated module so that the core reads no file and runs in a browser too.
 */
export interface MediaAsset {
  readonly bytes: Uint8Array;
  readonly contentType: string;
  readonly sha256: string;
  readonly etag: string;
}

let sample: MediaAsset | undefined;

export function sampleVideo(): MediaAsset {
  if (sample === undefined) {
    const binary = atob(SAMPLE_VIDEO_BASE64);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    const sha256 = SAMPLE_VIDEO_SHA256;
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
  const spec = header === undefined ? undefined : byteRangeSpec(header);
  if (spec === undefined) return { kind: 'full' };
  const { first, last } = spec;
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

const DIGITS = /^\d*$/;

/**
 * `bytes=FIRST-LAST` split without a backtracking pattern (the header is request data: a pattern with
 * adjacent `\s*` took 0.2 s of CPU on 15,000 spaces; test/mocks/prompt-tag-linear-time.e2e.test.ts).
 */
function byteRangeSpec(header: string): { first: string; last: string } | undefined {
  const text = header.trim();
  if (text.slice(0, 6).toLowerCase() !== 'bytes=') return undefined;
  const dash = text.indexOf('-', 6);
  if (dash < 0) return undefined;
  const first = text.slice(6, dash).trim();
  const last = text.slice(dash + 1).trim();
  return DIGITS.test(first) && DIGITS.test(last) ? { first, last } : undefined;
}

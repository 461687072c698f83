/**
 * What a body is, read from its first bytes: a video container (by its signature), text (HTML, JSON,
 * XML, plain text), nothing at all, or other binary data. Used by the contract suite's `content.binary`
 * check (§4.4: "a binary video stream, not JSON") and by `videotask verify-family`. Give it at least
 * the first 512 bytes: MPEG-TS is recognised by its sync byte repeating every 188 bytes.
 */

/** The containers recognised, as a message names them. */
export const KNOWN_CONTAINERS =
  'ISO BMFF (MP4, MOV, 3GP), QuickTime, Matroska/WebM, MPEG-TS, MPEG-PS, AVI, FLV, Ogg, ASF, MXF';

const ascii = (head: Uint8Array, from: number, to: number) =>
  String.fromCharCode(...head.subarray(from, to));
const startsWith = (head: Uint8Array, bytes: readonly number[], at = 0) =>
  head.byteLength >= at + bytes.length && bytes.every((b, i) => head[at + i] === b);

/** Atoms a QuickTime file may start with when it has no `ftyp` (its first byte is a size's high byte, 0). */
const QUICKTIME_ATOMS = new Set(['moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);
const TS_PACKET = 188;
const SYNC = 0x47;

/** MPEG-TS: the sync byte at every packet start the head holds (at least two), after `prefix` bytes. */
function transportStream(head: Uint8Array, prefix: number, packet: number): boolean {
  if (head.byteLength < prefix + packet + 1) return false;
  for (let at = prefix; at < head.byteLength; at += packet) if (head[at] !== SYNC) return false;
  return true;
}

const SIGNATURES: readonly (readonly [string, (head: Uint8Array) => boolean])[] = [
  ['ISO BMFF (ftyp)', (h) => h.byteLength >= 8 && ascii(h, 4, 8) === 'ftyp'],
  ['ISO BMFF segment (styp)', (h) => h.byteLength >= 8 && ascii(h, 4, 8) === 'styp'],
  ['QuickTime', (h) => h.byteLength >= 8 && h[0] === 0 && QUICKTIME_ATOMS.has(ascii(h, 4, 8))],
  ['Matroska/WebM (EBML)', (h) => startsWith(h, [0x1a, 0x45, 0xdf, 0xa3])],
  ['MPEG-TS', (h) => transportStream(h, 0, TS_PACKET)],
  ['MPEG-TS (M2TS, 192-byte packets)', (h) => transportStream(h, 4, TS_PACKET + 4)],
  ['MPEG-PS', (h) => startsWith(h, [0x00, 0x00, 0x01, 0xba])],
  ['AVI', (h) => h.byteLength >= 12 && ascii(h, 0, 4) === 'RIFF' && ascii(h, 8, 12) === 'AVI '],
  ['FLV', (h) => startsWith(h, [0x46, 0x4c, 0x56, 0x01])],
  ['Ogg', (h) => h.byteLength >= 4 && ascii(h, 0, 4) === 'OggS'],
  ['ASF (WMV)', (h) => startsWith(h, [0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11])],
  ['MXF', (h) => startsWith(h, [0x06, 0x0e, 0x2b, 0x34, 0x02, 0x05, 0x01, 0x01])],
];

/**
 * The container a video file starts with (`ISO BMFF (ftyp)`, `Matroska/WebM (EBML)`, `MPEG-TS`, …),
 * or `undefined` for anything else (JSON, HTML, nothing, an unknown format).
 */
export function videoSignature(head: Uint8Array): string | undefined {
  return SIGNATURES.find(([, matches]) => matches(head))?.[0];
}

/** What a body is, for a message: "HTML", "JSON", "an ISO BMFF (ftyp) video". */
export type BodyKind =
  | { readonly kind: 'video'; readonly container: string }
  | { readonly kind: 'empty' }
  | { readonly kind: 'text'; readonly what: 'HTML' | 'XML' | 'JSON' | 'plain text' }
  | { readonly kind: 'binary' };

/** Control bytes that never occur in text (tab, newlines, form feed and escape aside). */
const NOT_TEXT = (b: number) =>
  (b < 0x20 && ![0x09, 0x0a, 0x0c, 0x0d, 0x1b].includes(b)) || b === 0x7f;
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Whether the bytes are UTF-8 text (a multi-byte character cut off at the end of the head is allowed). */
function isText(head: Uint8Array, cut: boolean): boolean {
  if (head.some(NOT_TEXT)) return false;
  for (let drop = 0; drop <= (cut ? 3 : 0) && drop < head.byteLength; drop++) {
    try {
      decoder.decode(head.subarray(0, head.byteLength - drop));
      return true;
    } catch {
      // a character cut at the end: try without its last bytes
    }
  }
  return false;
}

function textKind(text: string): 'HTML' | 'XML' | 'JSON' | 'plain text' {
  const start = text
    .replace(/^\uFEFF?\s*/, '')
    .slice(0, 64)
    .toLowerCase();
  if (start.startsWith('<?xml')) return 'XML';
  if (start.startsWith('<')) return 'HTML';
  if (start.startsWith('{') || start.startsWith('[')) return 'JSON';
  return 'plain text';
}

/**
 * What a body of `bytes` bytes is, from its first bytes `head`: a video container by its signature,
 * text whatever its `Content-Type` says (an HTML error page served as `video/mp4` is no video), empty,
 * or binary data of no known container.
 */
export function describeBody(head: Uint8Array, bytes: number): BodyKind {
  if (bytes === 0) return { kind: 'empty' };
  const container = videoSignature(head);
  if (container !== undefined) return { kind: 'video', container };
  if (isText(head, head.byteLength < bytes))
    return { kind: 'text', what: textKind(new TextDecoder().decode(head)) };
  return { kind: 'binary' };
}

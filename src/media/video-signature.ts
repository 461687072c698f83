/**
 * The container a video file starts with, read from its first bytes: ISO BMFF (`ftyp` at offset 4:
 * MP4/MOV), Matroska/WebM (EBML) or AVI (RIFF…AVI). `undefined` for anything else (JSON, HTML, nothing).
 * Used by the contract suite's `content.binary` check and by `videotask verify-family`.
 */
export function videoSignature(head: Uint8Array): string | undefined {
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (head.byteLength >= 8 && ascii(4, 8) === 'ftyp') return 'ISO BMFF (ftyp)';
  if (
    head.byteLength >= 4 &&
    head[0] === 0x1a &&
    head[1] === 0x45 &&
    head[2] === 0xdf &&
    head[3] === 0xa3
  )
    return 'Matroska/WebM (EBML)';
  if (head.byteLength >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'AVI ') return 'AVI';
  return undefined;
}

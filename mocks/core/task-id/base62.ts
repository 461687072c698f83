/**
 * Fixed-width base 62 (`[0-9A-Za-z]`) of a big-endian unsigned number held in bytes: the alphabet and
 * width of the deployed gateway's task IDs (`task_` + 32 characters). 32 digits hold up to 62^32 − 1
 * (≈ 2^190.5); the codec puts 188 bits in them.
 */
export const BASE62_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const DIGIT = new Int8Array(128).fill(-1);
for (let i = 0; i < BASE62_ALPHABET.length; i++) DIGIT[BASE62_ALPHABET.charCodeAt(i)] = i;

/** 32-bit limbs, most significant first: small enough that limb × 62 + carry stays an exact double. */
const LIMB = 2 ** 32;

/** `width` base-62 digits of the number in `bytes` (which must fit; `bytes.length` a multiple of 4). */
export function toBase62(bytes: Uint8Array, width: number): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const limbs = new Float64Array(bytes.length / 4);
  for (let i = 0; i < limbs.length; i++) limbs[i] = view.getUint32(4 * i);
  let digits = '';
  for (let d = 0; d < width; d++) {
    let remainder = 0;
    for (let i = 0; i < limbs.length; i++) {
      const value = remainder * LIMB + limbs[i]!;
      const quotient = Math.floor(value / 62);
      limbs[i] = quotient;
      remainder = value - quotient * 62;
    }
    digits = BASE62_ALPHABET[remainder]! + digits;
  }
  return digits;
}

/**
 * The number `text` spells, as `size` big-endian bytes (a multiple of 4), or `undefined` when a
 * character is not a base-62 digit or the number does not fit in `size` bytes.
 */
export function fromBase62(text: string, size: number): Uint8Array | undefined {
  const limbs = new Float64Array(size / 4);
  for (let c = 0; c < text.length; c++) {
    const code = text.charCodeAt(c);
    let carry = code < 128 ? DIGIT[code]! : -1;
    if (carry < 0) return undefined;
    for (let i = limbs.length - 1; i >= 0; i--) {
      const value = limbs[i]! * 62 + carry;
      carry = Math.floor(value / LIMB);
      limbs[i] = value - carry * LIMB;
    }
    if (carry !== 0) return undefined;
  }
  const bytes = new Uint8Array(size);
  for (let i = 0; i < limbs.length; i++) {
    const limb = limbs[i]!;
    bytes[4 * i] = limb >>> 24;
    bytes[4 * i + 1] = (limb >>> 16) & 0xff;
    bytes[4 * i + 2] = (limb >>> 8) & 0xff;
    bytes[4 * i + 3] = limb & 0xff;
  }
  return bytes;
}

/**
 * SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104) in plain JavaScript: synchronous and the same in
 * every environment (Web Crypto's HMAC is asynchronous, and the core answers synchronously). An HMAC
 * key's padded blocks are hashed once, so a MAC of a short message costs two compressions.
 */

/** HMAC-SHA-256 under one key: the 32-byte MAC of a message. */
export type MacFunction = (message: Uint8Array) => Uint8Array;

/** Makes the MAC function of a key (`hmacSha256`: task IDs, signed result URLs). */
export type HmacFactory = (key: Uint8Array) => MacFunction;

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const INITIAL = new Uint32Array([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);

const BLOCK = 64;
const schedule = new Uint32Array(64);

/** One compression of the 64-byte block at `offset` into `state` (FIPS 180-4 §6.2.2). */
function compress(state: Uint32Array, block: Uint8Array, offset: number): void {
  const w = schedule;
  for (let i = 0; i < 16; i++) {
    const j = offset + 4 * i;
    w[i] = (block[j]! << 24) | (block[j + 1]! << 16) | (block[j + 2]! << 8) | block[j + 3]!;
  }
  for (let i = 16; i < 64; i++) {
    const x = w[i - 15]!;
    const y = w[i - 2]!;
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
  }
  let a = state[0]!,
    b = state[1]!,
    c = state[2]!,
    d = state[3]!,
    e = state[4]!,
    f = state[5]!,
    g = state[6]!,
    h = state[7]!;
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const choose = (e & f) ^ (~e & g);
    const t1 = (h + s1 + choose + K[i]! + w[i]!) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const majority = (a & b) ^ (a & c) ^ (b & c);
    const t2 = (s0 + majority) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = (state[0]! + a) | 0;
  state[1] = (state[1]! + b) | 0;
  state[2] = (state[2]! + c) | 0;
  state[3] = (state[3]! + d) | 0;
  state[4] = (state[4]! + e) | 0;
  state[5] = (state[5]! + f) | 0;
  state[6] = (state[6]! + g) | 0;
  state[7] = (state[7]! + h) | 0;
}

const scratch = new Uint32Array(8);
const tail = new Uint8Array(2 * BLOCK);
const tailView = new DataView(tail.buffer);

/**
 * Hashes `message` starting from `start`, a state that has already absorbed `absorbed` bytes (a
 * multiple of 64: an HMAC key's padded block), and writes the 32-byte digest into `digest`.
 */
function finish(
  start: Uint32Array,
  absorbed: number,
  message: Uint8Array,
  digest: Uint8Array,
): Uint8Array {
  const state = scratch;
  state.set(start);
  const whole = message.length - (message.length % BLOCK);
  for (let offset = 0; offset < whole; offset += BLOCK) compress(state, message, offset);
  const rest = message.length - whole;
  const size = rest < 56 ? BLOCK : 2 * BLOCK;
  tail.fill(0, 0, size);
  tail.set(message.subarray(whole));
  tail[rest] = 0x80;
  const bits = (absorbed + message.length) * 8;
  tailView.setUint32(size - 8, Math.floor(bits / 2 ** 32));
  tailView.setUint32(size - 4, bits >>> 0);
  for (let offset = 0; offset < size; offset += BLOCK) compress(state, tail, offset);
  for (let i = 0; i < 8; i++) {
    const word = state[i]!;
    digest[4 * i] = word >>> 24;
    digest[4 * i + 1] = (word >>> 16) & 0xff;
    digest[4 * i + 2] = (word >>> 8) & 0xff;
    digest[4 * i + 3] = word & 0xff;
  }
  return digest;
}

/** The SHA-256 digest of `message` (32 bytes). */
export function sha256(message: Uint8Array): Uint8Array {
  return finish(INITIAL, 0, message, new Uint8Array(32));
}

/** HMAC-SHA-256 under `key` (RFC 2104): the key's inner and outer blocks are absorbed once, here. */
export const hmacSha256: HmacFactory = (key) => {
  const block = new Uint8Array(BLOCK);
  block.set(key.length > BLOCK ? sha256(key) : key);
  const padded = (pad: number): Uint32Array => {
    const state = INITIAL.slice();
    compress(
      state,
      block.map((byte) => byte ^ pad),
      0,
    );
    return state;
  };
  const inner = padded(0x36);
  const outer = padded(0x5c);
  const innerDigest = new Uint8Array(32);
  return (message) =>
    finish(outer, BLOCK, finish(inner, BLOCK, message, innerDigest), new Uint8Array(32));
};

/** Lower-case hexadecimal of bytes. */
export function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hmacSha256, sha256, toHex } from '../../mocks/core/signing/sha256.ts';

const text = (s: string) => new TextEncoder().encode(s);
const hex = (h: string) => Uint8Array.from(h.match(/../g)!.map((b) => parseInt(b, 16)));

describe('sha256', () => {
  // FIPS 180-4 examples (NIST CSRC "Examples with Intermediate Values", SHA-256).
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    [
      'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    ],
    [
      'abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn' +
        'hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu',
      'cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1',
    ],
  ])('hashes %j as the standard says', (message, digest) => {
    expect(toHex(sha256(text(message)))).toBe(digest);
  });

  it('hashes a million "a" as the standard says', () => {
    expect(toHex(sha256(new Uint8Array(1_000_000).fill(0x61)))).toBe(
      'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0',
    );
  });

  it('agrees with node:crypto on every length around the block boundaries', () => {
    for (let n = 0; n < 200; n++) {
      const message = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 0xff);
      expect(toHex(sha256(message))).toBe(createHash('sha256').update(message).digest('hex'));
    }
  });
});

describe('hmacSha256', () => {
  // RFC 4231 test cases 1, 2, 3, 4, 6 and 7 (case 5 truncates the output).
  it.each([
    [
      '0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b',
      text('Hi There'),
      'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7',
    ],
    [
      toHex(text('Jefe')),
      text('what do ya want for nothing?'),
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    ],
    [
      'aa'.repeat(20),
      new Uint8Array(50).fill(0xdd),
      '773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe',
    ],
    [
      '0102030405060708090a0b0c0d0e0f10111213141516171819',
      new Uint8Array(50).fill(0xcd),
      '82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b',
    ],
    [
      'aa'.repeat(131),
      text('Test Using Larger Than Block-Size Key - Hash Key First'),
      '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54',
    ],
    [
      'aa'.repeat(131),
      text(
        'This is a test using a larger than block-size key and a larger than ' +
          'block-size data. The key needs to be hashed before being used by the ' +
          'HMAC algorithm.',
      ),
      '9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2',
    ],
  ])('gives RFC 4231 vector under key %s', (key, message, mac) => {
    expect(toHex(hmacSha256(hex(key))(message))).toBe(mac);
  });

  it('agrees with node:crypto for any key and message, and the same MAC function is reusable', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 150 }), fc.uint8Array({ maxLength: 300 }), (k, m) => {
        const mac = hmacSha256(k);
        const expected = createHmac('sha256', k).update(m).digest('hex');
        expect(toHex(mac(m))).toBe(expected);
        expect(toHex(mac(m))).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });
});

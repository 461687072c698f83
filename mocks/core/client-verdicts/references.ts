import { MAX_JSON_DEPTH } from '../../../src/text/json-depth.ts';

/**
 * §2.1 on the second family's reference URLs (`metadata.content`, and `content`, `image`, `images`):
 * "URLs must be readable by the upstream and must not be short-lived previews". What a request shows
 * of that, as `RequestFlag` bits (observation.ts): a URL on a loopback, private or link-local host,
 * or of a scheme no upstream fetches (`file:`, `blob:`), cannot be read by the upstream, whatever it
 * is (`unreadable`); a URL signed with an expiry (S3, GCS, Azure, OSS, TOS, CloudFront query
 * parameters) is likely a short-lived preview, but how long it lives is not in the request
 * (`preview`: advice only).
 */
export const REFERENCE = { unreadable: 128, preview: 256, any: 512 } as const;

/** Strings looked at per body at most: a hostile body costs no more than this. */
const MAX_STRINGS = 256;

/** Query parameters that sign a URL with an expiry, lower-cased; any one is enough. */
const EXPIRY_PARAMETERS = new Set([
  'x-amz-expires',
  'x-goog-expires',
  'x-oss-expires',
  'x-tos-expires',
  'se', // Azure SAS: signed expiry
]);
/** Parameters that sign a URL with an expiry only together (`Expires` with `Signature`: S3 v2, OSS, CloudFront). */
const EXPIRES_WITH = ['signature', 'x-amz-signature', 'sig', 'key-pair-id', 'ossaccesskeyid'];

/** The §2.1 reference flags of a second-family body (0 when every reference is a public URL). */
export function referenceFlags(body: Record<string, unknown>): number {
  const metadata = body['metadata'];
  const places = [
    body['content'],
    body['image'],
    body['images'],
    metadata !== null && typeof metadata === 'object'
      ? (metadata as Record<string, unknown>)['content']
      : undefined,
  ];
  const walk = { flags: 0, strings: 0 };
  for (const place of places) visit(place, 0, walk);
  return walk.flags;
}

function visit(value: unknown, depth: number, walk: { flags: number; strings: number }): void {
  if (typeof value === 'string') {
    if (walk.strings++ < MAX_STRINGS) walk.flags |= urlFlags(value);
    return;
  }
  if (value === null || typeof value !== 'object' || depth >= MAX_JSON_DEPTH) return;
  for (const item of Object.values(value)) visit(item, depth + 1, walk);
}

/** The flags of one string: 0 unless it is a URL the rule is about. */
export function urlFlags(text: string): number {
  if (!text.includes(':')) return 0;
  const url = URL.parse(text.trim());
  if (url === null) return 0;
  const scheme = url.protocol;
  if (scheme === 'file:' || scheme === 'blob:') return REFERENCE.unreadable | REFERENCE.any;
  if (scheme !== 'http:' && scheme !== 'https:') return 0; // asset:// is its own rule; data: is inline
  if (privateHost(url.hostname)) return REFERENCE.unreadable | REFERENCE.any;
  return signedWithExpiry(url.searchParams) ? REFERENCE.preview | REFERENCE.any : REFERENCE.any;
}

function signedWithExpiry(params: URLSearchParams): boolean {
  const names = new Set([...params.keys()].map((name) => name.toLowerCase()));
  for (const name of EXPIRY_PARAMETERS)
    if (names.has(name) && (name !== 'se' || names.has('sig'))) return true;
  return names.has('expires') && EXPIRES_WITH.some((name) => names.has(name));
}

/** A host no upstream on the internet reaches: loopback, private, link-local, unspecified, local names. */
export function privateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local')) return true;
  if (host.startsWith('[')) return privateIpv6(host.slice(1, -1));
  return privateIpv4(host);
}

function privateIpv4(host: string): boolean {
  const octets = host.split('.');
  if (octets.length !== 4 || !octets.every((o) => /^\d{1,3}$/.test(o))) return false;
  const [a, b] = octets.map(Number) as [number, number];
  return (
    a === 127 ||
    a === 10 ||
    a === 0 ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 169 && b === 254) ||
    (a === 100 && b >= 64 && b <= 127) // carrier-grade NAT (RFC 6598)
  );
}

function privateIpv6(address: string): boolean {
  const a = address.toLowerCase();
  if (a === '::1' || a === '::') return true;
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(a);
  if (mapped !== null) {
    const [high, low] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
    return privateHost(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`);
  }
  return /^f[cd][0-9a-f]{2}:/.test(a) || /^fe[89ab][0-9a-f]:/.test(a);
}

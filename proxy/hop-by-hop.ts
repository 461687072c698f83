/**
 * What a proxy forwards of a message's header fields (RFC 9110 §7.6.1): every field but the
 * connection's own. `Connection` is removed with every field it names as a connection option, and so
 * are the fields that are only ever about one connection whether named or not (`Proxy-Connection`,
 * `Keep-Alive`, `TE`, `Transfer-Encoding`, `Upgrade`), and the proxy's own credentials
 * (`Proxy-Authorization`, `Proxy-Authenticate`: RFC 9110 §11.7, consumed by the proxy they are for).
 * `Host` is the next hop's (RFC 9110 §7.2), set by whoever sends the request. A `Via` names this proxy
 * (RFC 9110 §7.6.3: a proxy MUST send one).
 */

const ALWAYS_DROPPED = new Set([
  'connection',
  'proxy-connection',
  'keep-alive',
  'te',
  'transfer-encoding',
  'upgrade',
  'proxy-authorization',
  'proxy-authenticate',
  'host',
]);

/** A name's length as one bit of a mask (every length from 31 on shares the last). */
const lengthBit = (length: number): number => 1 << Math.min(length, 31);
/** The lengths of the names `endToEnd` compares: the fields always dropped, and `Via`. */
const CHECKED_LENGTHS = [...ALWAYS_DROPPED, 'via'].reduce(
  (mask, name) => mask | lengthBit(name.length),
  0,
);

/** What this proxy adds to `Via` (RFC 9110 §7.6.3: protocol version and a pseudonym). */
export const VIA = '1.1 videotask-proxy';

/** The connection options a message's `Connection` fields name (lower case). */
function connectionOptions(raw: readonly string[]): Set<string> | undefined {
  let options: Set<string> | undefined;
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i]!.length === 10 && raw[i]!.toLowerCase() === 'connection')
      for (const option of raw[i + 1]!.split(','))
        (options ??= new Set()).add(option.trim().toLowerCase());
  return options;
}

/**
 * `raw` (node's `rawHeaders`: name, value, name, value…, as sent) less the hop-by-hop fields, with
 * this proxy added to `Via` and `extra` fields after them. Names keep their case; repeated fields stay
 * repeated, in order.
 */
export function endToEnd(raw: readonly string[], extra: readonly string[] = []): string[] {
  const named = connectionOptions(raw);
  let checked = CHECKED_LENGTHS;
  if (named !== undefined) for (const option of named) checked |= lengthBit(option.length);
  const out: string[] = [];
  let via = false;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    // A name of none of the lengths checked is kept as it is, never lower-cased to be compared.
    if ((checked & lengthBit(name.length)) === 0) {
      out.push(name, raw[i + 1]!);
      continue;
    }
    const lower = name.toLowerCase();
    if (ALWAYS_DROPPED.has(lower) || named?.has(lower) === true) continue;
    if (lower === 'via') {
      out.push(name, `${raw[i + 1]!}, ${VIA}`);
      via = true;
    } else out.push(name, raw[i + 1]!);
  }
  if (!via) out.push('Via', VIA);
  for (const field of extra) out.push(field);
  return out;
}

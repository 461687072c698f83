import type { IncomingHttpHeaders } from 'node:http';

/**
 * The field lines of a message's head as the proxy reads them off the wire (RFC 9112 §5), at its
 * front door (requests) and from the upstream (answers): each line `NAME: VALUE`, a token before the
 * colon, no control character in the value, no folding. Names are lower-cased once; node's `headers`
 * view (repeats folded as `IncomingMessage.headers` folds them) is made when first read, as node makes
 * it: most answers are read by a few fields by name (`get`), never as a whole (decisions/061).
 */

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** What node refuses to send in a field's value (checkInvalidHeaderChar). */
const BAD_VALUE = /[^\t\x20-\x7e\x80-\xff]/;
/**
 * Every field line at once, from the end of the head's first line: one pass for the common case, a
 * head without fault. Equal to the line-by-line rules (`whyNotFields`, which names the fault).
 */
const FIELD_LINES = /(?:\r\n[!#$%&'*+.^_`|~0-9A-Za-z-]+:[\t\x20-\x7e\x80-\xff]*)*$/y;
/** Fields of which node keeps the first when repeated (`IncomingMessage` `matchKnownFields`). */
const FIRST_WINS = new Set([
  'age',
  'authorization',
  'content-length',
  'content-type',
  'etag',
  'expires',
  'from',
  'host',
  'if-modified-since',
  'if-unmodified-since',
  'last-modified',
  'location',
  'max-forwards',
  'proxy-authorization',
  'referer',
  'retry-after',
  'server',
  'user-agent',
]);

/** A head's fields: as sent, by lower-case name, and as node's `headers`. */
export class Fields {
  #headers: IncomingHttpHeaders | undefined;

  constructor(
    /** Name, value, name, value… as sent: names keep their case, repeated fields stay repeated. */
    readonly rawHeaders: string[],
    /** Each field's name in lower case, in order (`rawHeaders[2 * i]` lower-cased). */
    readonly names: readonly string[],
  ) {}

  /** Lower-case names, repeated values joined as node's `IncomingMessage.headers` joins them. */
  get headers(): IncomingHttpHeaders {
    if (this.#headers !== undefined) return this.#headers;
    // No prototype: a field named `constructor` or `__proto__` is a field like any other.
    const headers = Object.create(null) as IncomingHttpHeaders;
    for (let i = 0; i < this.names.length; i++)
      addField(headers, this.names[i]!, this.rawHeaders[2 * i + 1]!);
    return (this.#headers = headers);
  }

  /**
   * `headers[name]` (`name` in lower case), `Set-Cookie`'s values joined by ', ': without making
   * `headers` for a field sent once.
   */
  get(name: string): string | undefined {
    const at = this.names.indexOf(name);
    if (at < 0) return undefined;
    if (name !== 'set-cookie' && this.names.indexOf(name, at + 1) < 0)
      return this.rawHeaders[2 * at + 1];
    const value = this.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  /** How many times the field `name` (lower case) was sent. */
  count(name: string): number {
    let count = 0;
    for (const each of this.names) if (each === name) count++;
    return count;
  }
}

/**
 * The fields of the head `text` (its text up to the empty line), whose first line ends at `from`; or
 * why they are not fields.
 */
export function readFields(text: string, from: number, of: 'answer' | 'request'): Fields | string {
  FIELD_LINES.lastIndex = from;
  if (!FIELD_LINES.test(text)) return whyNotFields(text.slice(from + 2).split('\r\n'), of);
  const raw: string[] = [];
  const names: string[] = [];
  for (let at = from; at < text.length;) {
    const start = at + 2;
    const end = text.indexOf('\r\n', start);
    at = end < 0 ? text.length : end;
    const colon = text.indexOf(':', start);
    const name = text.slice(start, colon);
    raw.push(name, withoutSpace(text, colon + 1, at));
    names.push(name.toLowerCase());
  }
  return new Fields(raw, names);
}

/** The first line of `lines` that is not a field line, named; `FIELD_LINES` found one. */
function whyNotFields(lines: readonly string[], of: 'answer' | 'request'): string {
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon) : '';
    if (!TOKEN.test(name))
      return `a field line of the ${of} is not NAME: VALUE: ${JSON.stringify(line.slice(0, 60))}`;
    if (BAD_VALUE.test(line.slice(colon + 1)))
      return `the ${of}'s ${name} field holds a control character`;
  }
  return `the ${of}'s fields are not field lines`;
}

/** `text[start, end)` without the spaces and tabs around it (a field value's OWS, RFC 9110 §5.5). */
function withoutSpace(text: string, start: number, end: number): string {
  let from = start;
  let to = end;
  while (from < to && isSpace(text.charCodeAt(from))) from++;
  while (to > from && isSpace(text.charCodeAt(to - 1))) to--;
  return text.slice(from, to);
}

const isSpace = (code: number): boolean => code === 0x20 || code === 0x09;

/** Adds a field (its name lower-case) to `headers` as node's `IncomingMessage.headers` folds repeats. */
export function addField(headers: IncomingHttpHeaders, name: string, value: string): void {
  const had = headers[name];
  if (had === undefined) headers[name] = name === 'set-cookie' ? [value] : value;
  else if (name === 'set-cookie') (had as string[]).push(value);
  else if (!FIRST_WINS.has(name))
    headers[name] = `${had as string}${name === 'cookie' ? '; ' : ', '}${value}`;
}

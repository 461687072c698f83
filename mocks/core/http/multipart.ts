/**
 * A bounded `multipart/form-data` reader (RFC 7578) for the service core: no `node:` import, no
 * streaming (the host has already capped the body's size), linear in the body's length. It reads text
 * fields and reports file parts, and refuses what it cannot read with a message naming the problem.
 */
export interface FormPart {
  readonly name: string;
  /** Set for a file part (`filename` in its Content-Disposition). */
  readonly filename?: string | undefined;
  readonly value: string;
}

export interface FormLimits {
  /** Most parts in one body. */
  readonly maxParts: number;
  /** Longest header block of one part, in bytes. */
  readonly maxHeaderBytes: number;
}

export const DEFAULT_FORM_LIMITS: FormLimits = { maxParts: 64, maxHeaderBytes: 4096 };

const CRLF = '\r\n';
// One UTF-16 unit per byte (windows-1252, as the Encoding Standard reads `latin1`): string offsets are byte offsets.
const bytesAsText = new TextDecoder('latin1');
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The boundary of a `multipart/form-data` Content-Type (RFC 2046 §5.1.1: 1–70 characters). */
export function formBoundary(contentType: string): string | undefined {
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))\s*(?:;|$)/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

/** The parts of a form body, or the first problem found. */
export function parseForm(
  bytes: Uint8Array,
  contentType: string,
  limits: FormLimits = DEFAULT_FORM_LIMITS,
): { parts: FormPart[] } | { problem: string } {
  const boundary = formBoundary(contentType);
  if (boundary === undefined)
    return { problem: 'the Content-Type names no boundary (1–70 characters)' };
  const text = bytesAsText.decode(bytes);
  const delimiter = `--${boundary}`;
  // A preamble before the first boundary is allowed (RFC 2046 §5.1.1) and ignored.
  const first = text.startsWith(delimiter) ? 0 : text.indexOf(CRLF + delimiter);
  if (first < 0) return { problem: `the body holds no boundary --${boundary}` };
  const parts: FormPart[] = [];
  let at = (first === 0 ? 0 : first + CRLF.length) + delimiter.length;
  for (;;) {
    if (text.startsWith('--', at)) return { parts };
    if (!text.startsWith(CRLF, at)) return { problem: 'a boundary is not followed by CRLF' };
    if (parts.length === limits.maxParts) return { problem: `more than ${limits.maxParts} parts` };
    const headerEnd = text.indexOf(CRLF + CRLF, at + 2);
    if (headerEnd < 0 || headerEnd - at > limits.maxHeaderBytes)
      return {
        problem: `part ${parts.length + 1} has no end of headers within ${limits.maxHeaderBytes} bytes`,
      };
    const next = text.indexOf(CRLF + delimiter, headerEnd + 4);
    if (next < 0) return { problem: `part ${parts.length + 1} is not closed by the boundary` };
    const part = readPart(bytes.subarray(at + 2, headerEnd), bytes.subarray(headerEnd + 4, next));
    if ('problem' in part) return { problem: `part ${parts.length + 1}: ${part.problem}` };
    parts.push(part);
    at = next + CRLF.length + delimiter.length;
  }
}

function readPart(head: Uint8Array, content: Uint8Array): FormPart | { problem: string } {
  const headers = text(head);
  if (headers === undefined) return { problem: 'its headers are not UTF-8 text' };
  const disposition = headers.split(CRLF).find((line) => /^content-disposition:/i.test(line));
  if (disposition === undefined) return { problem: 'no Content-Disposition header' };
  if (!/^content-disposition:\s*form-data\s*(;|$)/i.test(disposition))
    return { problem: 'Content-Disposition is not form-data' };
  const name = parameter(disposition, 'name');
  if (name === undefined || name === '') return { problem: 'no field name' };
  const filename = parameter(disposition, 'filename');
  if (filename !== undefined) return { name, filename, value: '' };
  const value = text(content);
  return value === undefined ? { problem: `field ${name} is not UTF-8 text` } : { name, value };
}

function text(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** A `key="value"` (or bare token) parameter of a header line (RFC 7578 §4.2). */
function parameter(line: string, key: string): string | undefined {
  const match = new RegExp(`;\\s*${key}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^\\s;]+))`, 'i').exec(line);
  return match?.[1]?.replace(/\\(.)/g, '$1') ?? match?.[2];
}

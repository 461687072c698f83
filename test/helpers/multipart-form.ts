// Multipart form bodies for the tests of the gateway's form submissions (spec SubmitForm).

export const encoder = new TextEncoder();
export const TYPE = 'multipart/form-data; boundary=XyZ';
/** What the openai SDK's videos.create sends, plus reference images. */
export const KITE_FIELDS = [
  ['model', 'video-pro-v1'],
  ['prompt', 'a red kite'],
  ['seconds', '8'],
  ['size', '1280x720'],
  ['images', 'https://x.test/a.png'],
  ['images', 'https://x.test/b.png'],
] as const;

/** A form body from [name, value, filename?] fields, as FormData would write it. */
export function form(
  fields: readonly (readonly [string, string, string?])[],
  boundary = 'XyZ',
): string {
  const parts = fields.map(([name, value, filename]) => {
    const file = filename === undefined ? '' : `; filename="${filename}"`;
    const type = filename === undefined ? '' : '\r\nContent-Type: image/png';
    return `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file}${type}\r\n\r\n${value}\r\n`;
  });
  return `${parts.join('')}--${boundary}--\r\n`;
}

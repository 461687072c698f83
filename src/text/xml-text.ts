const ESCAPES: Record<string, string> = {
  '<': '&lt;',
  '>': '&gt;',
  '&': '&amp;',
  '"': '&quot;',
  "'": '&apos;',
};
/**
 * What XML 1.0 forbids in a document (C0 controls but tab, newline and carriage return; U+FFFE, U+FFFF;
 * lone surrogates), shown as its `\\uXXXX` escape so a hostile server's text cannot make CI unable to read the report.
 */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const hex4 = (ch: string) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** Text as XML character data or an attribute value (JUnit reports). */
export function xmlText(s: string): string {
  return s.replace(NOT_XML, hex4).replace(/[<>&"']/g, (ch) => ESCAPES[ch]!);
}

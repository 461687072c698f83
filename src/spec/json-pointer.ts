/**
 * Whether a JSON pointer (RFC 6901: `/components/schemas/VideoTask`, `~1` for `/`, `~0` for `~`)
 * names a node of `document`. The empty pointer names the document itself.
 */
export function hasPointer(document: unknown, pointer: string): boolean {
  if (pointer === '') return true;
  if (!pointer.startsWith('/')) return false;
  let node: unknown = document;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return false;
    if (Array.isArray(node) && !/^(0|[1-9]\d*)$/.test(key)) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return true;
}

import { HTTP_METHODS, type OpenApiDocument } from './spec-types.ts';

/**
 * What a reader of the spec (and of the /docs page) needs on every operation: an operationId and a
 * summary; in the service's spec (the one with `x-lifecycle`) also a description citing its rules, and
 * `info.contact` (issue 17). Throws naming the first operation that lacks one.
 */
export function checkDescribed(document: OpenApiDocument): void {
  const service = document['x-lifecycle'] !== undefined;
  const info = document.info as { readonly contact?: { readonly name?: unknown } };
  if (service && typeof info.contact?.name !== 'string')
    throw new Error('info.contact.name is missing: say who answers for this spec');
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method] as
        { operationId?: unknown; summary?: unknown; description?: unknown } | undefined;
      if (operation === undefined) continue;
      const where = `${method.toUpperCase()} ${path}`;
      const named = typeof operation.operationId === 'string' ? operation.operationId : undefined;
      if (named === undefined) throw new Error(`${where} has no operationId`);
      if (!nonEmpty(operation.summary)) throw new Error(`${where} (${named}) has no summary`);
      if (service && !nonEmpty(operation.description))
        throw new Error(`${where} (${named}) has no description: say what it does and cite its §`);
    }
  }
}

const nonEmpty = (text: unknown): boolean => typeof text === 'string' && text.trim() !== '';

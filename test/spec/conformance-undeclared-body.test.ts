import { expect, it } from 'vitest';
import { expectConformant } from '../helpers/conformance.ts';

// Found while looking for why our own "every answer validates" test let through what Prism caught (issue 17):
// `expectConformant` returned early when the declared response had no content, so a body of any media type
// on a redirect or a HEAD answer passed unchecked. Such a body is now an undeclared media type.
it.each([
  ['a JSON body on the content redirect, which declares none', 'getVideoContent', undefined, 302],
  ['a video body on HEAD', 'headVideoContent', 'HEAD', 200],
])('fails on %s', (_name, operationId, method, status) => {
  const body = new Uint8Array([0, 0, 0, 24, 102, 116, 121, 112]);
  const contentType = method === 'HEAD' ? 'video/mp4' : 'application/octet-stream';
  expect(() => expectConformant(operationId, { method, status, contentType, body })).toThrow(
    /not declared|carries a body/,
  );
});

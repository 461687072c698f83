import { expect, it } from 'vitest';
import { Redactor } from '../../src/redaction/redactor.ts';

// A learned profile kept `WWW-Authenticate: Bearer …"videotask", error="invalid_token"`: the redaction
// took the challenge's `realm=` for a bearer token, and the masked value (with its `…`) was no longer a
// header value Node would send, so a mock serving the profile hung on every unauthenticated request.
it('keeps an authentication challenge and still masks a bearer token', () => {
  const redactor = new Redactor([]);
  const challenge = 'Bearer realm="videotask", error="invalid_token"';
  expect(redactor.redact(challenge)).toBe(challenge);
  const masked = redactor.redact('Authorization: Bearer abcdef1234567890');
  expect(masked).not.toContain('abcdef1234567890');
  expect(masked).toMatch(/^Authorization: Bearer .*7890$/);
});

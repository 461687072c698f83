import { expect, it } from 'vitest';
import { sameSecret } from '../../mocks/core/keys/control-access.ts';

it('accepts only the exact admin token, whatever part of it a guess shares', () => {
  const secret = 'adm-9f3c2e7b1d4a6058';
  expect(sameSecret(secret, secret)).toBe(true);
  for (const guess of [
    '',
    'adm-',
    secret.slice(0, -1),
    `${secret}x`,
    `${secret}${secret}`,
    secret.toUpperCase(),
    `${secret.slice(0, -1)}9`,
  ])
    expect(sameSecret(guess, secret), guess).toBe(false);
  expect(sameSecret('', '')).toBe(false);
});

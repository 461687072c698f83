import { describe, expect, it } from 'vitest';
import { BUILT_IN_TOKENS, TokenDirectory } from '../../mocks/core/keys/tokens.ts';

// TokenDirectory remembers the last header it read (issue 23): whatever order headers come in, each
// gets its own answer, as if nothing were remembered.

const directory = () => new TokenDirectory(BUILT_IN_TOKENS);

describe('TokenDirectory.authenticate', () => {
  it("answers each header with its own key's token, whatever came before it", () => {
    const tokens = directory();
    const asked = [
      'Bearer sk-mock-alice',
      'Bearer sk-mock-alice',
      'Bearer sk-mock-bob',
      undefined,
      'bearer  sk-mock-alice ',
      'Bearer sk-mock-nobody',
      'Bearer sk-mock-nobody',
      'Basic sk-mock-alice',
      'Bearer sk-mock-bob',
      '',
      'Bearer sk-mock-alice',
    ];
    expect(asked.map((header) => tokens.authenticate(header)?.user)).toEqual([
      'alice',
      'alice',
      'bob',
      undefined,
      'alice',
      undefined,
      undefined,
      undefined,
      'bob',
      undefined,
      'alice',
    ]);
  });

  it('answers a header it has just answered the same, from a string made anew', () => {
    const tokens = directory();
    const header = (key: string) => ['Bearer', key].join(' ');
    const first = tokens.authenticate(header('sk-mock-vip'));
    expect(tokens.authenticate(header('sk-mock-vip'))).toBe(first);
    expect(first?.group).toBe('vip');
  });
});

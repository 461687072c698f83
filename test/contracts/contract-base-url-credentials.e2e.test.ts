import { describe, expect, it } from 'vitest';
import { runVideotask } from '../helpers/cli.ts';

// Issue 14 item 14: `--base-url 'http://qa:TopSecretPw@host'` was accepted and the password printed in
// the "cannot reach" error. Credentials in the base URL are a usage error (exit 2), never echoed, as
// the client commands already treat them.
describe('videotask contract --base-url with credentials', () => {
  it.each([
    ['a user and password', 'http://qa:TopSecretPw@127.0.0.1:9'],
    ['a percent-encoded password', 'http://qa:Top%53ecretPw@127.0.0.1:9'],
    ['a password and a host that is not valid', 'http://qa:TopSecretPw@bad host'],
    ['a password on a path ending in /v1', 'https://qa:TopSecretPw@staging.example/v1'],
  ])('is refused with exit 2 and never echoed: %s', async (_name, url) => {
    const run = await runVideotask([
      'contract',
      '--base-url',
      url,
      '--api-key',
      'sk-qa-0123456789',
    ]);
    expect(run.code).toBe(2);
    const output = run.stdout + run.stderr;
    expect(output).toMatch(/--base-url/);
    for (const secret of ['TopSecretPw', 'Top%53ecretPw', 'TopSecret'])
      expect(output).not.toContain(secret);
  });

  it('says what to do instead', async () => {
    const run = await runVideotask([
      'contract',
      '--base-url',
      'http://qa:TopSecretPw@127.0.0.1:9',
      '--api-key',
      'sk-qa-0123456789',
    ]);
    expect(run.stderr).toMatch(/must not contain credentials.*--api-key/);
  });
});

import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/cli-in-process.ts';

// `videotask status --base-url http://u:p@host` said "baseUrl must not contain credentials: pass the
// key as apiKey", the library's option names, which no CLI user typed. The CLI names its own flags.
// In-process (`main(argv)`): each refusal comes before anything is sent.
describe('client command errors name the flags the user typed', () => {
  it.each([
    ['credentials', 'http://qa:TopSecretPw@127.0.0.1:9', /--base-url must not contain credentials/],
    [
      'a trailing /v1',
      'http://127.0.0.1:9/v1',
      /--base-url "http:\/\/127\.0\.0\.1:9\/v1" ends in \/v1/,
    ],
    ['another scheme', 'ftp://files.example', /--base-url must be an http or https URL/],
  ])('%s: exit 2, flags not option names', async (_name, url, expected) => {
    for (const command of [
      ['status', 'task_x'],
      ['submit', '--model', 'video-pro-v1', '--prompt', 'a kite'],
      ['contract'],
    ]) {
      const run = await runMain([...command, '--base-url', url, '--api-key', 'sk-mock-alice']);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(expected);
      expect(run.stderr).not.toMatch(/\bbaseUrl\b|\bapiKey\b/);
      expect(run.stderr).not.toContain('TopSecretPw');
    }
  });

  it('credentials: says to pass the key with --api-key', async () => {
    const url = 'http://qa:TopSecretPw@127.0.0.1:9';
    const run = await runMain(['status', 'task_x', '--base-url', url, '--api-key', 'sk-x']);
    expect(run.stderr).toMatch(/pass the key as --api-key|pass the key with --api-key/);
  });
});

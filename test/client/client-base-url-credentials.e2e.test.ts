import { describe, expect, it } from 'vitest';
import { runVideotask } from '../helpers/cli.ts';

// The client commands refused credentials in a base URL that parses, but echoed the raw text when it did
// not parse (`http://qa:TopSecretPw@bad host`) or had another scheme: the password reached the terminal.
const SECRETS = ['TopSecretPw', 'Top/Secret', 'TopSecret'];

describe('client commands never echo credentials of a --base-url', () => {
  it.each([
    ['a host that is not valid', 'http://qa:TopSecretPw@bad host'],
    ['another scheme', 'ftp://qa:TopSecretPw@files.example'],
    ['no scheme', 'qa:TopSecretPw@video.example'],
    ['a slash in the password', 'http://qa:Top/Secret@bad host'],
  ])('%s: exit 2, the password nowhere', async (_name, url) => {
    for (const command of [
      ['status', 'task_x'],
      ['monitor', '--once'],
    ]) {
      const run = await runVideotask([...command, '--base-url', url, '--api-key', 'sk-mock-alice']);
      expect(run.code, run.stderr).toBe(2);
      for (const secret of SECRETS) expect(run.stdout + run.stderr).not.toContain(secret);
    }
  });
});

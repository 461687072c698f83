// Issue 24 item 13: `videotask mock --state FIFO` hung without a word (the open waited for a writer),
// `wait --journal /dev/zero` read 628 MB and exited 1, and bytes that are not UTF-8 in a state file were
// read as U+FFFD. Anything but a regular file is now refused (exit 2, saying what it is), a journal is
// read up to 256 MiB, and a line that is not UTF-8 is damage named by its line (exit 2).
import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMockService } from '../../mocks/node/create-mock-service.ts';
import { JournalError } from '../../src/client/errors.ts';
import { FileJournal } from '../../src/node/file-journal.ts';
import { closedPort, runVideotask, type CliRun } from '../helpers/cli.ts';
import { exitCode, killMockProcesses, spawnMock } from '../helpers/mock-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'videotask-odd-files-'));
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  const baseUrl = `http://127.0.0.1:${await closedPort()}`;
  env = { ...process.env, VIDEOTASK_BASE_URL: baseUrl, VIDEOTASK_API_KEY: 'sk-mock-alice' };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(killMockProcesses);

/** A FIFO nobody writes to or reads from: opening it the ordinary way waits for ever. */
function fifo(name: string): string {
  const path = join(dir, name);
  execFileSync('mkfifo', [path]);
  return path;
}

/** The mock on `--state FILE`: its exit code (a failure if it still runs after 15 s) and stderr. */
async function mockOn(file: string): Promise<{ code: number | null; stderr: string }> {
  const mock = spawnMock('--port', '0', '--state', file);
  return { code: await exitCode(mock, 15_000), stderr: mock.stderr() };
}

const cli = (...args: string[]): Promise<CliRun> => runVideotask(args, { env, timeoutMs: 15_000 });

const SUBMITTING =
  '{"type":"submitting","at":"2026-11-22T00:00:01.000Z","requestId":"vt-1",' +
  '"model":"video-pro-v1","endpoint":"/v1/videos"}\n';

describe.runIf(process.platform === 'linux')('state files that are not regular files', () => {
  it('exits 2 at once on --state naming a FIFO, and leaves nothing behind', async () => {
    const path = fifo('state.fifo');
    const { code, stderr } = await mockOn(path);
    expect(code).toBe(2);
    expect(stderr).toContain(`state file ${path}: it is a FIFO (named pipe), not a regular file`);
    expect(readdirSync(dir).filter((name) => name.startsWith('state.fifo'))).toEqual([
      'state.fifo',
    ]);
  });

  it('exits 2 on --state /dev/zero without making a lock next to it', async () => {
    const { code, stderr } = await mockOn('/dev/zero');
    expect(code).toBe(2);
    expect(stderr).toContain('state file /dev/zero: it is a character device, not a regular file');
  });
});

describe('state files whose bytes are not UTF-8', () => {
  it('exits 2 naming the line, and leaves the file as it was', async () => {
    const path = join(dir, 'latin1.state');
    createMockService({ stateFile: path }).stateFile!.close();
    const lines = readFileSync(path, 'utf8').split('\n').length; // the next line's number
    // Valid JSON once decoded with U+FFFD: it used to be accepted as a request ID of "\uFFFD\uFFFD".
    appendFileSync(
      path,
      Buffer.from([...Buffer.from('{"requestId":["'), 0xff, 0xfe, ...Buffer.from('",1]}\n')]),
    );
    const before = readFileSync(path);
    const { code, stderr } = await mockOn(path);
    expect(code).toBe(2);
    expect(stderr).toContain(`state file ${path}, line ${lines}: its bytes are not valid UTF-8`);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('still ignores a last line cut short in the middle of a character (a torn write)', () => {
    const path = join(dir, 'torn.state');
    createMockService({ stateFile: path }).stateFile!.close();
    appendFileSync(path, Buffer.from('{"requestId":["caf\xc3', 'latin1'));
    const service = createMockService({ stateFile: path });
    expect(service.stateFile!.path).toBe(path);
    service.stateFile!.close();
  });
});

describe.runIf(process.platform === 'linux')(
  'journals that are not regular files or too big',
  () => {
    it('wait --journal /dev/zero exits 2 at once, reading nothing', async () => {
      const run = await cli('wait', '--journal', '/dev/zero');
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('--journal /dev/zero is a character device, not a journal file');
    });

    it('wait --journal FIFO exits 2 instead of waiting for a writer', async () => {
      const run = await cli('wait', '--journal', fifo('wait.fifo'));
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(
        /--journal .*wait\.fifo is a FIFO \(named pipe\), not a journal file/,
      );
    });

    it('submit --journal on a FIFO or /dev/null exits 2 before anything is sent', async () => {
      for (const journal of [fifo('submit.fifo'), '/dev/null']) {
        const run = await cli(
          'submit',
          '--journal',
          journal,
          '--model',
          'video-pro-v1',
          '--prompt',
          'a kite',
        );
        expect(run.code).toBe(2);
        expect(run.stderr).toMatch(
          /is (a FIFO \(named pipe\)|a character device), not a journal file/,
        );
      }
    });

    it('wait --journal on a file over 256 MiB exits 2 without reading it', async () => {
      const path = join(dir, 'huge.jsonl');
      writeFileSync(path, SUBMITTING);
      truncateSync(path, 257 * 2 ** 20); // sparse: no disk used
      const run = await cli('wait', '--journal', path);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`more than the 256 MiB a journal may`);
    });
  },
);

describe('journal lines whose bytes are not UTF-8', () => {
  it('wait --journal exits 2 naming the line', async () => {
    const path = join(dir, 'latin1.jsonl');
    const damaged = SUBMITTING.replace('vt-1', 'vt-\xe9');
    writeFileSync(path, Buffer.concat([Buffer.from(SUBMITTING), Buffer.from(damaged, 'latin1')]));
    const run = await cli('wait', '--journal', path);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is damaged at line 2: its bytes are not valid UTF-8');
  });
});

describe.runIf(process.platform === 'linux')('FileJournal (the library) on a FIFO', () => {
  it('refuses to read or append instead of waiting', async () => {
    const journal = new FileJournal(fifo('library.fifo'));
    await expect(journal.read()).rejects.toThrow(/is a FIFO \(named pipe\), not a journal file/);
    await expect(
      journal.append({
        type: 'submitting',
        clientRequestId: 'vt-1',
        model: 'm',
        endpoint: '/v1/videos',
      }),
    ).rejects.toBeInstanceOf(JournalError);
    await journal.close();
  });
});

import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { stateFileServices } from '../helpers/state-file-services.ts';
import { eventually } from '../helpers/eventually.ts';

// A mock killed with -9 whose parent (a shell, a supervisor) had not collected it yet is a zombie: it
// still answers kill(pid, 0), so a restart right after said "in use by another mock" about a process
// that no longer ran. On Linux the lock now reads the holder's /proc state and takes a zombie's over.
const { dir, open } = stateFileServices('videotask-lock-zombie-');
const parents: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const parent of parents.splice(0)) parent.kill('SIGKILL');
});

/**
 * A process that has ended but is not reaped: the child of a parent that never waits for it. The child
 * ends only once its parent, the shell, has become `sleep` (which never reaps): a child that ended
 * before could be reaped by the shell first, and then there was no zombie to find (a CI run under load).
 */
async function zombie(): Promise<number> {
  const child = 'while [ "$(cat /proc/$$/comm)" != sleep ]; do sleep 0.01; done';
  const parent = spawn('sh', ['-c', `(${child}) & echo $!; exec sleep 30`], { stdio: 'pipe' });
  parents.push(parent);
  const pid = await new Promise<number>((resolve) =>
    parent.stdout.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim()))),
  );
  const state = () => /\) (\S)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1];
  await eventually(() => state() === 'Z', `process ${pid} becoming a zombie`);
  return pid;
}

it.runIf(process.platform === 'linux')(
  'takes over the lock of a killed process its parent has not reaped',
  async () => {
    const pid = await zombie();
    expect(() => process.kill(pid, 0)).not.toThrow(); // what made it look alive
    const path = join(dir, 'zombie.state');
    open(path).service.stateFile!.close();
    writeFileSync(`${path}.lock`, JSON.stringify({ pid, host: hostname() }));
    const service = open(path).service;
    expect(JSON.parse(readFileSync(`${path}.lock`, 'utf8'))).toMatchObject({ pid: process.pid });
    service.stateFile!.close();
  },
);

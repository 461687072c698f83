import { describe, expect, it } from 'vitest';
import { ProgressLine } from '../../cli/output.ts';

function stream(isTTY: boolean) {
  const chunks: string[] = [];
  return {
    chunks,
    out: { isTTY, write: (s: string) => chunks.push(s) > 0 } as unknown as NodeJS.WriteStream,
  };
}

describe('ProgressLine', () => {
  it('rewrites one line in place on a terminal and ends it with a newline', () => {
    const { chunks, out } = stream(true);
    const line = new ProgressLine(out);
    line.update('queued 0%');
    line.update('queued 0%');
    line.update('in_progress 40%');
    line.done();
    expect(chunks).toEqual(['\r\x1b[2Kqueued 0%', '\r\x1b[2Kin_progress 40%', '\n']);
  });

  it('prints plain lines, changes only, when not on a terminal', () => {
    const { chunks, out } = stream(false);
    const line = new ProgressLine(out);
    line.update('queued 0%');
    line.update('queued 0%');
    line.update('completed 100%');
    line.done();
    expect(chunks).toEqual(['queued 0%\n', 'completed 100%\n']);
  });

  it('erases the live line on a terminal for a result printed in its place, and leaves a log alone', () => {
    const tty = stream(true);
    const live = new ProgressLine(tty.out);
    live.update('in_progress 40%');
    live.clear();
    live.clear();
    expect(tty.chunks).toEqual(['\r\x1b[2Kin_progress 40%', '\r\x1b[2K']);
    const log = stream(false);
    const plain = new ProgressLine(log.out);
    plain.update('in_progress 40%');
    plain.clear();
    expect(log.chunks).toEqual(['in_progress 40%\n']);
  });

  it("shows a server's control characters instead of letting them act on the terminal", () => {
    const { chunks, out } = stream(true);
    const line = new ProgressLine(out);
    line.update('task_\x1b[2J queued 0%\r\u202e');
    expect(chunks).toEqual(['\r\x1b[2Ktask_\\u001b[2J queued 0%\\u000d\\u202e']);
  });
});

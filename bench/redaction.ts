// What the one redaction (src/redaction, decisions/024 and 048) costs: milliseconds per megabyte of
// hostile text (near-misses of a key, escapes that never complete, a megabyte of base64, hex, byte
// lists, markup, invisible or fullwidth characters, prose) and microseconds per short line. With
// `--baseline FILE` another redactor module (an older checkout's `src/redaction/redactor.ts`) is
// measured in the same run, input by input, in alternating order: the figure to read is this ÷ baseline
// (the machine's load hits both alike). Before/after a change:
//
//   git archive <commit> src | tar -x -C /tmp/before
//   npx tsx bench/redaction.ts --baseline /tmp/before/src/redaction/redactor.ts [--rounds 7] [--out FILE]
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Redactor } from '../src/redaction/redactor.ts';
import { benchFlags } from './lib/cli-flags.ts';
import { count } from './lib/cli-numbers.ts';
import { runMain } from './lib/processes.ts';
import { fixed, machine, median, table, writeJson } from './lib/report.ts';

const usage = `Usage: npx tsx bench/redaction.ts [options]
  --baseline FILE    another redactor module measured in the same run (e.g. an older checkout's
                     src/redaction/redactor.ts): each figure is then also given as this ÷ baseline
  --rounds N         measurements of each input, alternating which redactor goes first (default 7)
  --out FILE         JSON results (default bench/results/redaction.json)`;

interface Redacting {
  redact(text: string): string;
}

const KEY = 'sk-Rq7vX2mPz9LkT4wYc8NbH3sJ';
const KEYS = [KEY, 'sk-other-0123456789abcdef'];
const MEGABYTE = 1 << 20;
const bytes = Buffer.from(KEY);

/** A megabyte each: the inputs that make a naive search backtrack or rescan, and ordinary text. */
const INPUTS: Record<string, string> = {
  'near-misses of the key': `${KEY.slice(0, 11)}x`.repeat(MEGABYTE / 12),
  'escapes that never complete': '%2%25%u00&#x&#1\\u00=4\\7'.repeat(MEGABYTE / 24),
  base64: Buffer.alloc(768 * 1024, 7).toString('base64'),
  'base64 of base64': Buffer.from(Buffer.alloc(576 * 1024, 7).toString('base64')).toString(
    'base64',
  ),
  'hex digits': 'ab'.repeat(MEGABYTE / 2),
  'byte lists': `[${Array.from({ length: MEGABYTE / 4 }, (_, i) => 100 + (i % 27)).join(', ')}]`,
  markup: '<b>x</b><!-- y -->**z**'.repeat(MEGABYTE / 24),
  'invisible characters': '\u200b\u00ad\n'.repeat(MEGABYTE / 3),
  'fullwidth text': 'ｓｋ－'.repeat(MEGABYTE / 3),
  prose: 'The task completed after 42 s; see the record for details. '.repeat(MEGABYTE / 60),
};
/** A short line, redacted many times: the cost every printed line pays. */
const LINE = `task_8f3a2c1b9d status in_progress 50% (request id: 20261129${bytes.length})`;
const LINE_REPEATS = 2_000;

function config() {
  const values = benchFlags(
    { name: 'redaction', usage },
    { baseline: { type: 'string' }, rounds: { type: 'string', default: '7' } },
  );
  return {
    baseline: values.baseline === undefined ? undefined : resolve(values.baseline),
    rounds: count('rounds', values.rounds),
    out: pathToFileURL(resolve(values.out)),
  };
}

/** Milliseconds one redaction of `text` takes (`repeat` times, divided). */
function time(redactor: Redacting, text: string, repeat = 1): number {
  const started = performance.now();
  for (let i = 0; i < repeat; i++) redactor.redact(text);
  return (performance.now() - started) / repeat;
}

interface Figure {
  readonly input: string;
  readonly unit: 'ms per MB' | 'µs per line';
  readonly current: number;
  readonly baseline: number | undefined;
  readonly ratio: number | undefined;
}

function measureInput(
  name: string,
  measureOne: (r: Redacting) => number,
  redactors: { current: Redacting; baseline: Redacting | undefined },
  rounds: number,
): { current: number; baseline: number | undefined } {
  const current: number[] = [];
  const baseline: number[] = [];
  const { baseline: other } = redactors;
  for (let round = 0; round < rounds; round++) {
    if (other !== undefined && round % 2 === 1) baseline.push(measureOne(other));
    current.push(measureOne(redactors.current));
    if (other !== undefined && round % 2 === 0) baseline.push(measureOne(other));
  }
  console.error(`${name}: ${fixed(median(current), 1)}`);
  return { current: median(current), baseline: other === undefined ? undefined : median(baseline) };
}

async function main(): Promise<number> {
  const cfg = config();
  const host = machine();
  const current = new Redactor(KEYS);
  let baseline: Redacting | undefined;
  if (cfg.baseline !== undefined) {
    const module = (await import(pathToFileURL(cfg.baseline).href)) as {
      Redactor: new (keys: string[]) => Redacting;
    };
    baseline = new module.Redactor(KEYS);
  }
  const redactors = { current, baseline };
  // Warm both up (the JIT), on a little of every input.
  for (const text of Object.values(INPUTS))
    for (const r of [current, baseline]) r?.redact(text.slice(0, 20_000));
  const figures: Figure[] = [];
  for (const [input, text] of Object.entries(INPUTS)) {
    const perMb = (r: Redacting) => time(r, text) * (MEGABYTE / text.length);
    const m = measureInput(input, perMb, redactors, cfg.rounds);
    figures.push({ input, unit: 'ms per MB', ...m, ratio: ratioOf(m) });
  }
  const perLine = (r: Redacting) => time(r, LINE, LINE_REPEATS) * 1000;
  const line = measureInput('a short line', perLine, redactors, cfg.rounds);
  figures.push({ input: 'a short line', unit: 'µs per line', ...line, ratio: ratioOf(line) });
  console.log(
    `\nThe one redaction, median of ${cfg.rounds} rounds; load average ${host.loadAverage1m} before` +
      `${baseline === undefined ? '' : `; baseline ${cfg.baseline}`}\n` +
      table([
        ['input', 'unit', 'this', 'baseline', 'this ÷ baseline'],
        ...figures.map((f) => [
          f.input,
          f.unit,
          fixed(f.current, 1),
          fixed(f.baseline, 1),
          fixed(f.ratio, 2),
        ]),
      ]),
  );
  writeJson(cfg.out, {
    benchmark: 'redaction',
    date: new Date().toISOString(),
    machine: host,
    config: { rounds: cfg.rounds, baseline: cfg.baseline },
    figures,
  });
  console.log(`written: ${fileURLToPath(cfg.out)}`);
  return 0;
}

function ratioOf(m: { current: number; baseline: number | undefined }): number | undefined {
  return m.baseline === undefined ? undefined : m.current / m.baseline;
}

runMain(main);

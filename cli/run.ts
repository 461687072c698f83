import { stopWhenOutputCloses } from './signals.ts';
import { main } from './main.ts';

// The `videotask` command's process: bin/videotask.js loads this (compiled, or from the sources in a checkout).
stopWhenOutputCloses();
process.exitCode = await main(process.argv.slice(2));

import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeTextAtomically } from '../src/node/atomic-file.ts';
import { InputFileError, notRegularPath, readInputFile } from '../src/node/input-file.ts';
import {
  MAX_PROFILE_BYTES,
  PHASE_NAMES,
  phaseShown,
  ProfileError,
  readProfile,
  type LearnedProfile,
} from '../src/profile/index.ts';
import { UsageError } from './options.ts';

/** The JSON Schema of the format, as shipped in the package (spec/learned-profile.schema.json). */
const SCHEMA = fileURLToPath(new URL('../spec/learned-profile.schema.json', import.meta.url));

/**
 * A learned profile from a file (`--profile FILE`, `--learn FILE` refining one): a missing, unreadable
 * or bad file is a `UsageError` saying which field is wrong and what to do.
 */
export function readProfileFile(path: string, flag: string): LearnedProfile {
  let text: string;
  try {
    // The one rule for a file read whole (issue 33 item 8): a FIFO, a device, a folder, a file over
    // MAX_INPUT_FILE_BYTES or not UTF-8 is refused at once, never waited on or read without end.
    ({ text } = readInputFile(path, { label: flag, maxBytes: MAX_PROFILE_BYTES }));
  } catch (error) {
    if (!(error instanceof InputFileError)) throw error;
    // The rule's message says what to give instead; a missing file, how to make one.
    const learn = 'Learn one with: videotask learn --base-url URL --api-key KEY --out FILE';
    throw new UsageError(error.missing ? `${error.message}. ${learn}` : error.message);
  }
  try {
    return readProfile(text, `${flag} ${path}`);
  } catch (error) {
    if (!(error instanceof ProfileError)) throw error;
    throw new UsageError(`${error.message}. Fix the file, or learn it again (videotask learn)`);
  }
}

/**
 * The profile an existing file holds, to refine; undefined when there is none yet. A path that names
 * something else than a regular file (a FIFO, a device, a folder) is refused before any run, whether it
 * is to be refined or written afresh (`--fresh`): a profile is written over a regular file only.
 */
export function existingProfile(
  path: string,
  flag: string,
  refine = true,
): LearnedProfile | undefined {
  const kind = notRegularPath(path);
  if (kind !== undefined)
    throw new UsageError(`${flag} ${path} is ${kind}: give the name of a regular file to write`);
  return refine && existsSync(path) ? readProfileFile(path, flag) : undefined;
}

/**
 * Writes a profile whole or not at all, readable (two-space JSON, a `$schema` pointing at the format's
 * schema for editors), ending with a newline so it diffs cleanly. Its folder is made first, as
 * `--report-dir`'s is (`drift --learn-dir DIR`, `learn --out DIR/P.json` with DIR not made yet).
 */
export async function writeProfileFile(path: string, profile: LearnedProfile): Promise<void> {
  await mkdir(dirname(resolve(path)), { recursive: true });
  const { $schema: _old, ...rest } = profile;
  const schema = relative(dirname(resolve(path)), SCHEMA)
    .split('\\')
    .join('/');
  await writeTextAtomically(path, `${JSON.stringify({ $schema: schema, ...rest }, null, 2)}\n`);
}

/** One line on what a profile holds: cells, tasks, phases, delivery. */
export function describeProfile(profile: LearnedProfile): string {
  const cells = Object.keys(profile.answers).length;
  const { tasks, phases } = profile.lifecycle;
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const range = ([from, to]: readonly [number, number]) =>
    from === to ? seconds(from) : `${(from / 1000).toFixed(1)}–${seconds(to)}`;
  // A phase no look showed is no duration (decisions/038): say so, with the gap it fit in.
  const phaseText = PHASE_NAMES.map((phase) => {
    const [, gap] = phases[phase];
    if (phaseShown(profile.lifecycle, phase)) return `${phase} ${range(phases[phase])}`;
    return `${phase} not shown${gap > 0 ? ` (at most ${seconds(gap)})` : ''}`;
  }).join(', ');
  const timing = tasks === 0 ? 'no task followed (--tier free)' : `${tasks} tasks: ${phaseText}`;
  const content = profile.content === null ? '' : `; content by ${profile.content.delivery}`;
  const runs = `${profile.target.runs} run${profile.target.runs === 1 ? '' : 's'}`;
  return `${cells} cells from ${runs} of ${profile.target.host}${profile.target.basePath ?? ''}; ${timing}${content}`;
}

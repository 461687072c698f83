import { deploymentKeys, randomSecret } from '../core/signing/secret.ts';
import type { Defect } from '../defects/defect.ts';
import { resolveDefects } from '../defects/catalog.ts';
import {
  createMockService as createCoreMockService,
  type MockOptions as CoreMockOptions,
  type MockService as CoreMockService,
} from '../core/service/service.ts';
import type { Persistence } from '../core/service/persistence.ts';
import { hmacSha256 } from '../core/signing/sha256.ts';
import { observedPersistence, type StateObserver } from './observed-persistence.ts';
import { StateFileError, type SecretRecord } from './state-file/format.ts';
import { lockStateFile } from './state-file/lock.ts';
import { checkStateFileKind, readStateFile, type RestoredState } from './state-file/reader.ts';
import { openStateFile, type StateFile, type StateFileOptions } from './state-file/writer.ts';

export interface MockOptions extends CoreMockOptions {
  /**
   * Deliberately broken behaviours: names (`videotask mock --list-defects`) or defect objects. They wrap
   * the core before `wrap`'s wrappers (decisions/029); an unknown name throws a `RangeError`.
   */
  readonly defects?: readonly (string | Defect)[] | undefined;
  /**
   * Keep the state in this file across restarts, kill -9 included
   * ([decisions/012](../../decisions/012-state-file-v2.md)). What it holds wins over `seed`, `clock.start`
   * and `familyBound`; a random secret is kept in it. Call `service.stateFile.close()` when done.
   */
  readonly stateFile?: string | StateFileOptions | undefined;
  /** Told of every change to the shared state, once kept (a cluster primary, decisions/016). */
  readonly observer?: StateObserver | undefined;
}

export interface MockService extends CoreMockService {
  /** The defects it plays (names), as `GET /__mock/health` lists them. */
  readonly defects: readonly string[];
  /** The state file kept up to date (`stateFile` option), if any. */
  readonly stateFile: StateFile | undefined;
}

/**
 * The simulated service with what only Node has: a state file (`stateFile`), locked while in use, and
 * defects by name (`defects`, wrapped around the core). Everything else is the environment-neutral
 * core's `createMockService`. Throws a `StateFileError` (nothing written to the file) when the file
 * cannot be used.
 *
 * @example
 * const service = createMockService({ stateFile: 'mock-state.jsonl' });
 * // … serve it …
 * service.stateFile?.close();
 */
export function createMockService(options: MockOptions = {}): MockService {
  return createMockDeployment(options).service;
}

/** The same, and the secret it runs with (a cluster primary hands it to its workers, decisions/016). */
export function createMockDeployment(options: MockOptions = {}): {
  service: MockService;
  secret: string;
} {
  const { stateFile, observer, defects: named = [], ...core } = options;
  const defects = resolveDefects(named);
  const wrapped = { ...core, wrap: [...defects, ...(core.wrap ?? [])] };
  const observed = (persistence: Persistence | undefined): Persistence | undefined =>
    observer === undefined ? persistence : observedPersistence(persistence, observer);
  const withDefects = (service: CoreMockService): MockService =>
    Object.assign(service, { defects: defects.map((d) => d.name) }) as MockService;
  if (stateFile === undefined) {
    const secret = core.secret ?? randomSecret();
    const persistence = observed(core.persistence);
    const service = createCoreMockService({ ...wrapped, secret, persistence });
    return { service: withDefects(service), secret };
  }
  const stateOptions = typeof stateFile === 'string' ? { path: stateFile } : stateFile;
  const { path } = stateOptions;
  checkStateFileKind(path);
  const lock = lockStateFile(path);
  try {
    const restored = readStateFile(path);
    const { secret, record } = resolveSecret(path, core, restored);
    const service = createCoreMockService({
      ...wrapped,
      secret,
      persistence: observed({
        restored,
        attach: (target) =>
          openStateFile({ options: stateOptions, target, restored, lock, secret: record }),
      }),
    });
    return { service: withDefects(service), secret };
  } catch (error) {
    lock.release();
    throw error;
  }
}

/**
 * The secret to run with, and how the file names it: the file's own (random, kept in it), or one given
 * from outside (only its fingerprint is written). A file never silently changes secret: its tasks'
 * IDs would all stop answering.
 */
function resolveSecret(
  path: string,
  options: CoreMockOptions,
  restored: RestoredState | undefined,
): { secret: string; record: SecretRecord } {
  const given = options.secret;
  const fingerprint = (secret: string) => deploymentKeys(secret, hmacSha256).fingerprint;
  const kept = restored?.secret;
  const refuse = (problem: string): never => {
    throw new StateFileError(path, undefined, problem);
  };
  if (kept === undefined) {
    if (given !== undefined) return { secret: given, record: { fingerprint: fingerprint(given) } };
    const secret = randomSecret();
    return { secret, record: { kept: secret } };
  }
  if ('kept' in kept) {
    if (given !== undefined && given !== kept.kept)
      refuse(
        'it keeps its own secret, and another was given (--secret, --secret-file or ' +
          'VIDEOTASK_MOCK_SECRET): its tasks would stop answering. Give none, or use a new file',
      );
    return { secret: kept.kept, record: kept };
  }
  if (given === undefined)
    return refuse(
      'it was written under a secret given from outside: give the same one again ' +
        '(--secret-file, VIDEOTASK_MOCK_SECRET or --secret)',
    );
  if (fingerprint(given) !== kept.fingerprint)
    refuse(
      'it was written under another secret (its fingerprint differs): give the same one, or use a new file',
    );
  return { secret: given, record: kept };
}

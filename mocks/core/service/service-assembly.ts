import { SECOND_FAMILY, serviceContract } from '../../../src/spec/index.ts';
import { ArtifactSigner } from '../signing/artifacts.ts';
import { BUILT_IN_MODELS, type CatalogModel, type FamilyState } from '../keys/catalog.ts';
import { clockStateFrom, readClock, serviceClock, type ClockOptions } from '../clock.ts';
import { createClientVerdicts, type ClientVerdicts } from '../client-verdicts/client-verdicts.ts';
import { errorResponse } from '../http/errors.ts';
import { sampleVideo } from '../http/media.ts';
import type { PersistenceTarget, KeptState, PersistedState } from './persistence.ts';
import { DEFAULT_TIMING } from '../plan/plan.ts';
import { learnedWrapperStatuses } from '../profile/learned-replay.ts';
import type { Profile } from '../profile/core-profile.ts';
import { resolveProfile } from '../profile/profiles.ts';
import { createRandom, randomSeed } from '../plan/random.ts';
import { RateLimiter } from './rate-limiter.ts';
import { wrapperStatuses } from '../render/render.ts';
import { deploymentKeys, randomSecret } from '../signing/secret.ts';

import type { ServiceState } from './service-state.ts';
import type { MockOptions } from './mock-options.ts';
import {
  applyOperation,
  emptySharedState,
  type Operation,
  type SharedState,
} from '../state/shared-state.ts';
import { hmacSha256 } from '../signing/sha256.ts';
import { TaskStore } from '../task/store.ts';
import { TaskIdCodec } from '../task-id/task-id-codec.ts';
import { WHOLE_SHARE, shareProblem } from '../task-id/task-id-share.ts';
import { RenderedTasks } from '../render/rendered-tasks.ts';
import { TaskLookup } from '../task/task-lookup.ts';
import { BUILT_IN_TOKENS, TokenDirectory } from '../keys/tokens.ts';
import { wrapperNames } from './wrap.ts';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_ARTIFACT_TTL_MS = 60 * 60 * 1000;

export interface AssembledService {
  readonly state: ServiceState;
  readonly seed: number | string;
  readonly limiter: RateLimiter | undefined;
}

/** The seed of the random source for this start: the saved seed, varied per restart (new draws). */
function randomSeedFor(seed: number | string, restored: KeptState | undefined): number | string {
  return restored === undefined || restored.starts === 0
    ? seed
    : `${seed}/start-${restored.starts + 1}`;
}

/** A fresh shared state, or the restored one with its clock resuming where the file says. */
function initialSharedState(options: MockOptions, restored: KeptState | undefined): SharedState {
  const clockOptions: ClockOptions = {
    ...options.clock,
    ...(options.speed !== undefined ? { speed: options.speed } : {}),
  };
  if (restored === undefined)
    return emptySharedState(clockStateFrom(clockOptions), options.familyBound ?? false);
  restored.shared.clock = clockStateFrom(clockOptions, restored.clock);
  return restored.shared;
}

function checkedFailureRate(failureRate: number): number {
  if (!(failureRate >= 0 && failureRate <= 1))
    throw new RangeError(`failureRate must be between 0 and 1, got ${failureRate}`);
  return failureRate;
}

function checkedShare(idShare: NonNullable<MockOptions['taskIdShare']>): typeof idShare {
  const shareIssue = shareProblem(idShare);
  if (shareIssue !== undefined) throw new RangeError(`taskIdShare: ${shareIssue}`);
  return idShare;
}

/** The built-in tokens and the configured ones, or only the configured ones when they replace them. */
function tokenDirectory(options: MockOptions): TokenDirectory {
  return new TokenDirectory(
    options.replaceBuiltInTokens === true
      ? (options.tokens ?? [])
      : [...BUILT_IN_TOKENS, ...(options.tokens ?? [])],
  );
}

/** The tasks a state file restored, and the IDs it says were taken. */
function restoreTasks(store: TaskStore, restored: KeptState | undefined): void {
  for (const id of restored?.tasks ?? []) store.add(id);
  store.avoid(restored?.taken ?? []);
}

function wrapperStatusesFor(
  lifecycle: ServiceState['lifecycle'],
  replay: Profile['learned'],
): ServiceState['wrapperStatuses'] {
  return replay === undefined
    ? wrapperStatuses(lifecycle)
    : learnedWrapperStatuses(wrapperStatuses(lifecycle), replay);
}

/**
 * The profile's error answers: its own names for the kinds, or the learned deployment's answers, whose
 * messages end as the deployment's do (its request ID in them, decisions/031).
 */
function errorsOf(profile: Profile): ServiceState['error'] {
  const replay = profile.learned;
  return replay === undefined
    ? (_id, kind, detail, headers) => errorResponse(profile.errors[kind] ?? kind, detail, headers)
    : (serviceRequestId, kind, detail, headers) =>
        replay.noteError(
          errorResponse(kind, detail, headers, replay.messageEnding(serviceRequestId)),
          kind,
        );
}

/** What the service is built from: its options checked, its profile, keys, and what was restored. */
function serviceParts(options: MockOptions) {
  const restored = options.persistence?.restored;
  const failureRate = checkedFailureRate(options.failureRate ?? 0);
  const profile = resolveProfile(options.profile);
  const replay = profile.learned;
  const idShare = checkedShare(options.taskIdShare ?? WHOLE_SHARE);
  const seed = restored?.seed ?? options.seed ?? randomSeed();
  const keys = deploymentKeys(options.secret ?? randomSecret(), hmacSha256);
  const shared = initialSharedState(options, restored);
  const tokens = tokenDirectory(options);
  const timing = { ...DEFAULT_TIMING, ...replay?.timing, ...options.timing };
  const plans = { timing, unknownFirstMs: profile.unknownFirstMs };
  return {
    restored,
    failureRate,
    profile,
    replay,
    idShare,
    seed,
    keys,
    shared,
    tokens,
    timing,
    plans,
  };
}

function serviceSettings(
  options: MockOptions,
  parts: ReturnType<typeof serviceParts>,
): ServiceState['settings'] {
  const { timing, plans, failureRate, replay, idShare } = parts;
  return {
    timing,
    plans,
    failureRate,
    contentRedirect: options.contentRedirect ?? replay?.profile.content?.delivery === 'redirect',
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    taskIdShare: idShare,
  };
}

/** The second family's plugin, bound while the shared state says so. */
function familyOf(shared: SharedState): FamilyState {
  return {
    get bound() {
      return shared.familyBound;
    },
    pluginVersion: SECOND_FAMILY.pluginVersion,
    pluginName: 'alt-video',
  };
}

/** What a state file keeps and restores of this service. */
function persistenceTarget(
  parts: ReturnType<typeof serviceParts>,
  store: TaskStore,
  setClockCeiling: (ms: number | undefined) => void,
): PersistenceTarget {
  const { seed, keys, shared } = parts;
  return {
    seed,
    secretFingerprint: keys.fingerprint,
    shared,
    store,
    clockNow: () => readClock(shared.clock),
    setClockCeiling,
  };
}

/** Builds the service's state from its options (and what its persistence restored), then attaches it. */
export function assembleService(options: MockOptions): AssembledService {
  const parts = serviceParts(options);
  const { restored, profile, replay, seed, keys, shared, tokens, plans } = parts;
  const startBound = options.familyBound ?? false;
  const codec = new TaskIdCodec({ mac: keys.idMac, stream: keys.idStream });
  const users = tokens.users();
  const lookup = new TaskLookup(codec, shared, () => users, plans);
  const store = new TaskStore(lookup);
  restoreTasks(store, restored);
  const limiter = options.rateLimit === undefined ? undefined : new RateLimiter(options.rateLimit);
  const { validators, lifecycle } = serviceContract();
  let ceiling: number | undefined;
  let stateFile: PersistedState | undefined = undefined;

  const apply = (operation: Operation): void => {
    stateFile?.record(operation);
    applyOperation(shared, operation);
    if (operation.op !== 'reset') return;
    store.clear();
    lookup.clear();
    state.renderedTasks.clear();
    limiter?.clear();
    state.clientVerdicts.clear();
  };
  const family = familyOf(shared);
  const state: ServiceState = {
    clock: serviceClock(shared, () => ceiling, apply),
    random: createRandom(randomSeedFor(seed, restored)),
    store,
    lookup,
    codec,
    shared,
    apply,
    get stateFile() {
      return stateFile;
    },
    tokens,
    models: new Map<string, CatalogModel>(BUILT_IN_MODELS.map((m) => [m.id, m])),
    family,
    signer: new ArtifactSigner(keys.artifact, options.artifactTtlMs ?? DEFAULT_ARTIFACT_TTL_MS),
    media: sampleVideo(),
    lifecycle,
    validators,
    wrapperStatuses: wrapperStatusesFor(lifecycle, replay),
    profile,
    renderedTasks: new RenderedTasks(),
    defectNames: wrapperNames(options.wrap ?? []),
    settings: serviceSettings(options, parts),
    error: errorsOf(profile),
    reset: () => apply({ op: 'reset', familyBound: startBound }),
    get clientVerdicts() {
      return clientVerdicts;
    },
  };
  const clientVerdicts: ClientVerdicts = createClientVerdicts(state, options.clientVerdicts);
  const target = persistenceTarget(parts, store, (ms) => {
    ceiling = ms;
  });
  stateFile = options.persistence?.attach(target);
  return { state, seed, limiter };
}

import type { Lifecycle, VideoStatus } from '../../../src/spec/lifecycle.ts';
import type { SpecValidators } from '../../../src/spec/validators.ts';
import type { ArtifactSigner } from '../signing/artifacts.ts';
import type { ClientVerdicts } from '../client-verdicts/client-verdicts.ts';
import type { ExchangeNotes } from '../client-verdicts/observation.ts';
import type { CatalogModel, FamilyState } from '../keys/catalog.ts';
import type { Clock } from '../clock.ts';
import type { ErrorDetail, ErrorKind } from '../http/errors.ts';
import type { CoreRequest, CoreResponse } from '../http/http-types.ts';
import type { MediaAsset } from '../http/media.ts';
import type { Timing } from '../plan/plan.ts';
import type { PersistedState } from './persistence.ts';
import type { Profile } from '../profile/core-profile.ts';
import type { Random } from '../plan/random.ts';
import type { Operation, SharedState } from '../state/shared-state.ts';
import type { TaskStore } from '../task/store.ts';
import type { PlanSettings } from '../task-blueprint.ts';
import type { TaskIdCodec } from '../task-id/task-id-codec.ts';
import type { TaskIdShare } from '../task-id/task-id-share.ts';
import type { RenderedTasks } from '../render/rendered-tasks.ts';
import type { TaskLookup } from '../task/task-lookup.ts';
import type { TaskView } from '../task/task-view.ts';
import type { MockToken, TokenDirectory } from '../keys/tokens.ts';

/** Everything the route handlers share. Internal to mocks/core. */
export interface ServiceState {
  readonly clock: Clock;
  /** Draws each new task's plan seed (reproducible with the `seed` option). */
  readonly random: Random;
  /** The tasks created here (listing), and lookups of any task by ID. */
  readonly store: TaskStore;
  readonly lookup: TaskLookup;
  readonly codec: TaskIdCodec;
  /** What a task's answer needs beyond its ID: change it only through `apply`. */
  readonly shared: Readonly<SharedState>;
  /** Keeps (`stateFile`) and applies one operation; throws `StateNotSavedError` when it cannot keep it. */
  apply(operation: Operation): void;
  /** Where the state is kept, if anywhere. */
  readonly stateFile: PersistedState | undefined;
  readonly tokens: TokenDirectory;
  readonly models: ReadonlyMap<string, CatalogModel>;
  readonly family: FamilyState;
  readonly signer: ArtifactSigner;
  readonly media: MediaAsset;
  readonly lifecycle: Lifecycle;
  readonly validators: SpecValidators;
  readonly wrapperStatuses: Readonly<Record<VideoStatus, string>>;
  readonly profile: Profile;
  /** The JSON text of each task's last status answer, reused while the answer stays the same. */
  readonly renderedTasks: RenderedTasks;
  /** The named wrappers' names (`MockOptions.wrap`): the defects the Node entry resolved (decisions/029). */
  readonly defectNames: readonly string[];
  readonly settings: ServiceSettings;
  /**
   * An error answer of a kind to the request `serviceRequestId` names, as this profile words it: its kinds,
   * and its message ending (a learned profile's ` (request id: …)`), built into the message.
   */
  error(
    serviceRequestId: string,
    kind: ErrorKind,
    detail?: ErrorDetail,
    headers?: Record<string, string>,
  ): CoreResponse;
  /** Forgets every task and restores the start-up binding (the clock keeps its time). */
  reset(): void;
  /** Judges the callers by the client rules (docs/client-verdicts.md). */
  readonly clientVerdicts: ClientVerdicts;
}

export interface RateLimit {
  readonly requests: number;
  readonly windowMs: number;
}

export interface ServiceSettings {
  readonly timing: Timing;
  /** How plans are drawn: the timing and the profile's unknown-first phase. */
  readonly plans: PlanSettings;
  readonly failureRate: number;
  /** `/content` answers a redirect to the temporary address instead of streaming. */
  readonly contentRedirect: boolean;
  readonly maxBodyBytes: number;
  /** The plan seeds this process mints task IDs from (decisions/010). */
  readonly taskIdShare: TaskIdShare;
}

/**
 * One request being handled: the request, the shared state and the caller's token (service routes),
 * and what the task routes note for the client verdicts (`ExchangeNotes`). A route family names the
 * part of the state it reads (`State`, a `Pick` of `ServiceState` declared with its routes), as the
 * client verdicts do (decisions/033); the route table hands each the whole.
 */
export interface RouteContext<State = ServiceState> extends ExchangeNotes {
  readonly request: CoreRequest;
  readonly state: State;
  /** Set for `service` routes once authenticated. */
  readonly token: MockToken;
  readonly head: boolean;
  /** The caller's task the route looked up (`ownedTask`) and its state then: read again by none. */
  task: TaskView | undefined;
  /**
   * The JSON body of the route's 200 answer as the object it rendered (a status query's), so the learned
   * replay reads it without parsing the text `jsonResponse` made of it.
   */
  rendered: unknown;
  /** An error answer to this request (`state.error` with its request ID). */
  error(kind: ErrorKind, detail?: ErrorDetail, headers?: Record<string, string>): CoreResponse;
}

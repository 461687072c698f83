import type { Lifecycle, VideoStatus } from '../../src/spec/lifecycle.ts';
import type { SpecValidators } from '../../src/spec/validators.ts';
import type { ArtifactSigner } from './artifacts.ts';
import type { CatalogModel, FamilyState } from './catalog.ts';
import type { Clock } from './clock.ts';
import type { ErrorDetail, ErrorKind } from './errors.ts';
import type { CoreRequest, CoreResponse } from './http-types.ts';
import type { MediaAsset } from './media.ts';
import type { Timing } from './plan.ts';
import type { Profile } from './profiles.ts';
import type { Random } from './random.ts';
import type { TaskStore } from './store.ts';
import type { MockToken, TokenDirectory } from './tokens.ts';

/** Everything the route handlers share. Internal to mocks/core. */
export interface ServiceState {
  readonly clock: Clock;
  readonly random: Random;
  readonly store: TaskStore;
  readonly tokens: TokenDirectory;
  readonly models: ReadonlyMap<string, CatalogModel>;
  readonly family: FamilyState;
  readonly signer: ArtifactSigner;
  readonly media: MediaAsset;
  readonly lifecycle: Lifecycle;
  readonly validators: SpecValidators;
  readonly wrapperStatuses: Readonly<Record<VideoStatus, string>>;
  readonly profile: Profile;
  /** The defects this mock plays (names). */
  readonly defectNames: readonly string[];
  readonly settings: ServiceSettings;
  /** An error answer of a kind, as this profile words it. */
  error(kind: ErrorKind, detail?: ErrorDetail, headers?: Record<string, string>): CoreResponse;
  /** Counts submissions per client request ID (`X-Request-Id` / `Idempotency-Key`), for tests of no-resubmission. */
  readonly submissionsByRequestId: Map<string, number>;
  /** Forgets every task and restores the start-up binding (the clock keeps its time). */
  reset(): void;
}

export interface RateLimit {
  readonly requests: number;
  readonly windowMs: number;
}

export interface ServiceSettings {
  readonly timing: Timing;
  readonly failureRate: number;
  /** `/content` answers a redirect to the temporary address instead of streaming. */
  readonly contentRedirect: boolean;
  readonly maxBodyBytes: number;
  /** Per-key request budget per window; off when undefined. */
  readonly rateLimit?: RateLimit | undefined;
}

/** One request being handled: the request, the shared state and the caller's token (service routes). */
export interface RouteContext {
  readonly request: CoreRequest;
  readonly state: ServiceState;
  /** Set for `service` routes once authenticated. */
  readonly token: MockToken;
  readonly head: boolean;
}

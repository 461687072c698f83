import type { ClockOptions } from '../clock.ts';
import type { ClientVerdictOptions } from '../client-verdicts/client-verdicts.ts';
import type { Persistence } from './persistence.ts';
import type { Timing } from '../plan/plan.ts';
import type { ProfileOption } from '../profile/profiles.ts';
import type { RateLimit } from './service-state.ts';
import type { TaskIdShare } from '../task-id/task-id-share.ts';
import type { MockToken } from '../keys/tokens.ts';
import type { ServiceWrapper } from './wrap.ts';

/** What a simulated service can be asked to be (`createMockService(options)`); read by service-assembly.ts. */
export interface MockOptions {
  /** How to make the service's clock (`service.clock`). Default: real time. */
  readonly clock?: ClockOptions | undefined;
  /** Shorthand for a real clock running this many times faster. */
  readonly speed?: number | undefined;
  /** Makes plans reproducible (IDs too, with the same `secret`). Default: a random seed (`service.seed`). */
  readonly seed?: number | string | undefined;
  /**
   * The deployment's secret: task IDs carry their task under it, and result URLs are signed with it
   * (decisions/010). Processes with the same secret answer each other's tasks. Default: random.
   */
  readonly secret?: string | undefined;
  /**
   * `documented` (default): the document, silences filled by the spec's assumptions. `observed`:
   * the deployed gateway's habits. Or a learned profile (the parsed JSON `videotask learn` wrote,
   * decisions/018): the mock answers as that deployment reads, on top of the documented behaviour.
   */
  readonly profile?: ProfileOption | undefined;
  /** Extra API keys; with `replaceBuiltInTokens` they replace the built-in ones. */
  readonly tokens?: readonly MockToken[] | undefined;
  readonly replaceBuiltInTokens?: boolean | undefined;
  /** `/content` answers a 302 to the temporary address instead of streaming. */
  readonly contentRedirect?: boolean | undefined;
  /** How long a temporary result address works after completion (simulated ms). Default 1 h. */
  readonly artifactTtlMs?: number | undefined;
  /** Largest accepted request body. Default 1 MiB. */
  readonly maxBodyBytes?: number | undefined;
  /** Queue and run time ranges (simulated ms). */
  readonly timing?: Partial<Timing> | undefined;
  /** Probability that a task without an explicit scenario fails. Default 0. */
  readonly failureRate?: number | undefined;
  /** Per-key request budget per window (simulated time). Default: no limit. */
  readonly rateLimit?: RateLimit | undefined;
  /** Start with the second family bound to its plugin channel. Default false (the document's state, §1). */
  readonly familyBound?: boolean | undefined;
  /** When set, the control API needs `Authorization: Bearer <adminToken>` (and is reachable from anywhere). */
  readonly adminToken?: string | undefined;
  /**
   * Wrappers around the core (decisions/029): each may rewrite a request before the core sees it and
   * the answer after, told what the request names (`WrapContext`). A defect object is one; defects by
   * name (`defects: ['no-progress']`) are the Node entry's (`videotask/mocks`).
   */
  readonly wrap?: readonly ServiceWrapper[] | undefined;
  /**
   * The service request IDs (`X-Oneapi-Request-Id`, the ID of its answer) this service hands out are
   * numbered `first`, `first + step`, … after its start time (default 1, 1): the workers of one
   * deployment take distinct `first`s and `step` = their number, so no two of them answer with the same ID.
   */
  readonly serviceRequestIds?: ServiceRequestIds | undefined;
  /**
   * The plan seeds this service mints task IDs from: those ≡ `index` (mod `of`); default all. Services
   * of one deployment that take distinct indexes of one `of` never mint the same task ID (a cluster's
   * workers, replicas with `--replica K/N`: decisions/010). One service never mints an ID twice.
   */
  readonly taskIdShare?: TaskIdShare | undefined;
  /**
   * Where a host keeps the state across restarts. The Node entry's `createMockService` makes one from
   * its `stateFile` option (`mocks/node/`); what it restores wins over `seed`, `clock.start` and `familyBound`.
   */
  readonly persistence?: Persistence | undefined;
  /**
   * Judge every caller's traffic by the document's rules for clients (docs/client-verdicts.md).
   * Default on; `false` turns it off; an object sets its memory limits.
   */
  readonly clientVerdicts?: boolean | ClientVerdictOptions | undefined;
}

/** How a service numbers its service request IDs: `first`, `first + step`, … (`serviceRequestIds`). */
export interface ServiceRequestIds {
  readonly first: number;
  readonly step: number;
}

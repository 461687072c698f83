import type { ContractTarget } from '../../../contracts/index.ts';
import type { CoreRequest, CoreResponse } from '../../../mocks/core/http/http-types.ts';
import { createRandom, type Random } from '../../../mocks/core/plan/random.ts';
import type { ServiceWrapper } from '../../../mocks/core/service/wrap.ts';
import type { MockOptions } from '../../../mocks/index.ts';
import {
  documentFreedoms,
  type Freedom,
  type FreedomVariation,
} from '../../../src/spec/freedoms.ts';

/**
 * A deployment the document allows, made of the room it leaves (spec/freedoms.yaml, decisions/042): for
 * each freedom one of its variations, drawn from a seed. The mock plays it in-process: the variations
 * of what a task does (timing, outcomes, the family's binding) are the mock's options; those of what
 * an answer says (extra fields, error envelopes, the catalog, progress, `unknown`) are wrappers around
 * its core, inside any defect or mutant played with it (what the defect breaks stays broken); those of
 * how an answer travels (a path prefix, ID forms, coding, redirects to another host, a slow first byte)
 * are layers between the suite's fetch and the service, so that a defect sees the paths and task IDs it
 * was written for.
 */

/** The service as a function of one request (`MockService.handle`), and a layer around it. */
export type Handle = (request: CoreRequest) => CoreResponse;
export type Layer = (next: Handle) => Handle;
/** A layer around the suite's fetch, given the run's clock (a slow first byte waits on it). */
export type FetchLayer = (
  next: typeof fetch,
  clock: { sleep(ms: number): Promise<void> },
) => typeof fetch;

/** What one variation adds to a deployment. */
export interface Part {
  readonly mock?: Partial<MockOptions>;
  /** Wrappers around the core, applied after (outside) the others already chosen. */
  readonly wrap?: readonly ServiceWrapper[];
  readonly layers?: readonly Layer[];
  readonly fetchLayers?: readonly FetchLayer[];
  /** How the suite is pointed at it (a base URL with a path). */
  readonly target?: Partial<ContractTarget>;
}

/** Plays one variation; `random` draws its own parameters (a duration, a prefix). */
export type Player = (random: Random) => Part;

/** One freedom's variation chosen for a deployment. */
export interface Choice {
  readonly freedom: string;
  readonly variation: string;
}

export interface Deployment {
  readonly seed: number;
  /** The profile it starts from: the document's silences filled by the spec, or the deployed gateway's habits. */
  readonly profile: Profile;
  /** The variation of each freedom, in the table's order. */
  readonly choices: readonly Choice[];
  /** The checks of an assumption its variations depart from (they may warn). */
  readonly departs: ReadonlySet<string>;
  /** The task states a run may never see on it. */
  readonly hides: ReadonlySet<string>;
  readonly mock: MockOptions;
  readonly wrap: readonly ServiceWrapper[];
  readonly layers: readonly Layer[];
  readonly fetchLayers: readonly FetchLayer[];
  readonly target: Partial<ContractTarget>;
}

export interface GenerateOptions {
  /** The players of each variation, by `freedom/variation`. */
  readonly players: Readonly<Record<string, Player>>;
  /** The table (default: the committed one). */
  readonly freedoms?: readonly Freedom[];
  /**
   * Which variations may be drawn (default: every one that is not `pending`). The self-proof of a
   * mutant leaves out those that hide its cell's state or depart from its own check.
   */
  readonly allow?: ((freedom: Freedom, variation: FreedomVariation) => boolean) | undefined;
  /** Draw `pending` variations too (a test that shows their reason still holds). */
  readonly pending?: boolean | undefined;
  /** The profiles it may start from (default both). */
  readonly profiles?: readonly Profile[] | undefined;
}

type Profile = 'documented' | 'observed';
const PROFILES: readonly Profile[] = ['documented', 'observed'];

const notPending = (_f: Freedom, v: FreedomVariation) => v.pending === undefined;

/** The key of a variation in the players' table. */
export const variationKey = (freedom: string, variation: string) => `${freedom}/${variation}`;

/**
 * The deployment of `seed`: for every freedom, one allowed variation, each drawn with equal chance,
 * then each played with its own draws. The same seed and table give the same deployment.
 */
export function generateDeployment(seed: number, options: GenerateOptions): Deployment {
  const random = createRandom(`conforming-${seed}`);
  const profiles = options.profiles ?? PROFILES;
  const profile = profiles[random.int(0, profiles.length - 1)]!;
  const allow = options.allow ?? notPending;
  const choices: Choice[] = [];
  const parts: Part[] = [];
  const departs = new Set<string>();
  const hides = new Set<string>();
  for (const freedom of options.freedoms ?? documentFreedoms()) {
    const drawable = (v: FreedomVariation) => options.pending === true || notPending(freedom, v);
    const allowed = freedom.variations.filter((v) => allow(freedom, v) && drawable(v));
    if (allowed.length === 0) throw new Error(`freedom ${freedom.id}: no variation may be drawn`);
    const variation = allowed[random.int(0, allowed.length - 1)]!;
    const key = variationKey(freedom.id, variation.id);
    const player = options.players[key];
    if (player === undefined) throw new Error(`no player for the variation ${key}`);
    choices.push({ freedom: freedom.id, variation: variation.id });
    parts.push(player(random));
    for (const check of variation.departs) departs.add(check);
    for (const state of variation.hides) hides.add(state);
  }
  return {
    seed,
    profile,
    choices,
    departs,
    hides,
    mock: Object.assign({ profile }, ...parts.map((p) => p.mock ?? {})) as MockOptions,
    wrap: parts.flatMap((p) => p.wrap ?? []),
    layers: parts.flatMap((p) => p.layers ?? []),
    fetchLayers: parts.flatMap((p) => p.fetchLayers ?? []),
    target: Object.assign({}, ...parts.map((p) => p.target ?? {})) as Partial<ContractTarget>,
  };
}

/** A deployment in one line: `seed 17: task-timing=minutes, unknown-state=mid-run, …`. */
export const describeDeployment = (d: Deployment): string =>
  `seed ${d.seed}: profile=${d.profile}, ${d.choices.map((c) => `${c.freedom}=${c.variation}`).join(', ')}`;

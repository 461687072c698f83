import { SECOND_FAMILY } from '../../../src/spec/second-family.ts';
import type { MockToken } from './tokens.ts';

export type ModelFamily = 'primary' | 'second';

export interface CatalogModel {
  readonly id: string;
  readonly family: ModelFamily;
  /** Groups whose tokens may use the model. */
  readonly groups: readonly string[];
  readonly ownedBy: string;
  /** Accepted clip lengths in seconds (§2.1 `metadata.duration`; the document shows no ranges, §8). */
  readonly duration: { readonly min: number; readonly max: number; readonly default: number };
  /** Accepted resolution tiers (`metadata.resolution`); absent: any (the channel ignores what it does not read). */
  readonly resolutions?: readonly string[] | undefined;
  /** Quota units charged per second of video (prices are per model, §1: never assume they are shared). */
  readonly pricePerSecond: number;
}

/** The gateway rejects a duration or `seconds` outside 1..3600 before any channel sees it. */
export const GATEWAY_DURATION = { min: 1, max: 3600 } as const;

export const SECOND_FAMILY_MODELS: readonly string[] = SECOND_FAMILY.models;

// The document names the models (§1); their groups, ranges, resolutions and prices are not shown (§8):
// the mock's assumptions, stated in the spec (`x-second-family.assumed`) and read from there.
const secondFamily = (id: string): CatalogModel => {
  const { groups, ownedBy, models } = SECOND_FAMILY.assumed;
  const { duration, resolutions, pricePerSecond } = models[id]!;
  return { id, family: 'second', groups, ownedBy, duration, resolutions, pricePerSecond };
};

export const BUILT_IN_MODELS: readonly CatalogModel[] = [
  {
    id: 'video-pro-v1',
    family: 'primary',
    groups: ['default', 'vip'],
    ownedBy: 'videotask',
    duration: { min: 1, max: 3600, default: 5 },
    pricePerSecond: 0.5,
  },
  {
    id: 'video-lite-v1',
    family: 'primary',
    groups: ['default', 'vip'],
    ownedBy: 'videotask',
    duration: { min: 1, max: 3600, default: 5 },
    pricePerSecond: 0.2,
  },
  ...SECOND_FAMILY.models.map(secondFamily),
];

/**
 * The second family's integration state (§1, §9). Unbound (today): still on the built-in video channel
 * of type 54, plugin 1.0.5 enabled but not bound. Bound: a type-61 plugin channel.
 */
export interface FamilyState {
  readonly bound: boolean;
  readonly pluginVersion: string;
  readonly pluginName: string;
}

export type Routing =
  | { readonly ok: true; readonly model: CatalogModel }
  | { readonly ok: false; readonly reason: 'token_model_not_allowed' | 'no_channel' };

/** Where a submission for `modelId` by `token` goes: the gateway's model routing. */
export function route(
  models: ReadonlyMap<string, CatalogModel>,
  token: MockToken,
  modelId: string,
): Routing {
  if (token.models !== undefined && !token.models.includes(modelId))
    return { ok: false, reason: 'token_model_not_allowed' };
  const model = models.get(modelId);
  if (model === undefined || !model.groups.includes(token.group))
    return { ok: false, reason: 'no_channel' };
  return { ok: true, model };
}

/**
 * The models `/v1/models` lists for a token: its group's, narrowed by the token's own list. The second
 * family is not listed while unbound (§1: the public listing did not show it).
 */
export function visibleModels(
  models: Iterable<CatalogModel>,
  family: FamilyState,
  token: MockToken,
): CatalogModel[] {
  return [...models].filter(
    (m) =>
      m.groups.includes(token.group) &&
      (token.models === undefined || token.models.includes(m.id)) &&
      (m.family === 'primary' || family.bound),
  );
}

import { serviceSpec } from './load-spec.ts';
import type { OpenApiDocument } from './spec-types.ts';

/** What the mock assumes about one model of the family where the document says "not shown" (§8). */
export interface AssumedFamilyModel {
  /** Accepted `metadata.duration` / `seconds`, in seconds; `default` when the request names none. */
  readonly duration: { readonly min: number; readonly max: number; readonly default: number };
  /** Accepted `metadata.resolution` tiers. */
  readonly resolutions: readonly string[];
  /** Quota units charged per second of video. */
  readonly pricePerSecond: number;
}

/** The second model family as the service document states it (§1, §9), from the spec's `x-second-family`. */
export interface SecondFamily {
  readonly models: readonly string[];
  readonly pluginVersion: string;
  /** The built-in video channel the models are still on (§1). */
  readonly builtInChannelType: number;
  /** A task-plugin channel (§1, §9 step 1). */
  readonly pluginChannelType: number;
  /** `x-second-family.assumed` (`x-documented: false`): groups, owner, ranges and prices the mock uses. */
  readonly assumed: {
    readonly groups: readonly string[];
    readonly ownedBy: string;
    readonly models: Readonly<Record<string, AssumedFamilyModel>>;
  };
}

export function readSecondFamily(document: OpenApiDocument): SecondFamily {
  const raw = document['x-second-family'] as Record<string, unknown> | undefined;
  const models = raw?.['models'];
  if (!Array.isArray(models) || models.length === 0 || !models.every((m) => typeof m === 'string'))
    throw new Error('x-second-family.models must list the model IDs');
  const pluginVersion = raw!['pluginVersion'];
  const builtIn = raw!['builtInChannelType'];
  const plugin = raw!['pluginChannelType'];
  if (
    typeof pluginVersion !== 'string' ||
    typeof builtIn !== 'number' ||
    typeof plugin !== 'number'
  )
    throw new Error(
      'x-second-family needs pluginVersion, builtInChannelType and pluginChannelType',
    );
  const assumed = readAssumed(raw!['assumed'], models);
  return { models, pluginVersion, builtInChannelType: builtIn, pluginChannelType: plugin, assumed };
}

function readAssumed(node: unknown, ids: readonly string[]): SecondFamily['assumed'] {
  const raw = (node ?? {}) as Record<string, unknown>;
  if (raw['x-documented'] !== false)
    throw new Error('x-second-family.assumed must be marked x-documented: false (§8: not shown)');
  const groups = raw['groups'];
  const ownedBy = raw['ownedBy'];
  if (!Array.isArray(groups) || !groups.every((g) => typeof g === 'string') || groups.length === 0)
    throw new Error('x-second-family.assumed.groups must list the groups the family is opened to');
  if (typeof ownedBy !== 'string') throw new Error('x-second-family.assumed.ownedBy is a string');
  const models = (raw['models'] ?? {}) as Record<string, unknown>;
  const byId: Record<string, AssumedFamilyModel> = {};
  for (const id of ids) byId[id] = readModel(models[id], `x-second-family.assumed.models.${id}`);
  const extra = Object.keys(models).filter((id) => !ids.includes(id));
  if (extra.length > 0)
    throw new Error(
      `x-second-family.assumed.models names models outside the family: ${extra.join(', ')}`,
    );
  return { groups, ownedBy, models: byId };
}

function readModel(node: unknown, where: string): AssumedFamilyModel {
  const raw = (node ?? {}) as Record<string, unknown>;
  const duration = (raw['duration'] ?? {}) as Record<string, unknown>;
  const { min, max } = duration;
  const fallback = duration['default'];
  const resolutions = raw['resolutions'];
  const price = raw['pricePerSecond'];
  const numbers = [min, max, fallback, price];
  if (!numbers.every((n) => typeof n === 'number' && Number.isFinite(n) && n >= 0))
    throw new Error(
      `${where} needs duration {min, max, default} and pricePerSecond as numbers ≥ 0`,
    );
  if (!((min as number) <= (fallback as number) && (fallback as number) <= (max as number)))
    throw new Error(`${where}.duration: min ≤ default ≤ max`);
  if (!Array.isArray(resolutions) || !resolutions.every((r) => typeof r === 'string'))
    throw new Error(`${where}.resolutions must list resolution tiers`);
  return {
    duration: { min: min as number, max: max as number, default: fallback as number },
    resolutions,
    pricePerSecond: price as number,
  };
}

/** The service document's second family. */
export const SECOND_FAMILY: SecondFamily = readSecondFamily(serviceSpec);

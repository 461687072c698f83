import { serviceSpec } from './load-spec.ts';
import type { OpenApiDocument } from './spec-types.ts';

/** The second model family as the service document states it (§1, §9), from the spec's `x-second-family`. */
export interface SecondFamily {
  readonly models: readonly string[];
  readonly pluginVersion: string;
  /** The built-in video channel the models are still on (§1). */
  readonly builtInChannelType: number;
  /** A task-plugin channel (§1, §9 step 1). */
  readonly pluginChannelType: number;
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
  return { models, pluginVersion, builtInChannelType: builtIn, pluginChannelType: plugin };
}

/** The service document's second family. */
export const SECOND_FAMILY: SecondFamily = readSecondFamily(serviceSpec);

import type { PollOptions } from '../../src/client/index.ts';
import type { Redactor } from '../../src/redaction/redactor.ts';

/** `/v1/models` as read once per run. */
export type CatalogCheck =
  | { readonly ok: true; readonly ids: ReadonlySet<string> }
  | { readonly ok: false; readonly error: unknown };

/** How each model is verified: the one task's parameters, the polling limits and where logs go. */
export interface VerifySettings {
  /** `metadata.duration` of the one task. */
  readonly seconds: number;
  /** Whether the administrator passed `--seconds` (otherwise the value is an assumption). */
  readonly secondsGiven: boolean;
  readonly prompt: string;
  readonly poll: Omit<PollOptions, 'signal' | 'onUpdate' | 'stopOn'>;
  readonly dryRun: boolean;
  /** Masks the API key in everything recorded or logged. */
  readonly redactor: Redactor;
  /** The task plugin whose native status path is read once for its `usage` (`--plugin-name`). */
  readonly pluginName?: string | undefined;
  readonly signal: AbortSignal;
  readonly log: (model: string, text: string) => void;
}

import type { VideoTaskClient } from '../../src/client/index.ts';
import type { Redactor } from '../../src/redaction/redactor.ts';
import type { VideoTask } from '../../src/spec/index.ts';
import { messageOf } from './error-facts.ts';
import type { UsageFinding } from './model-verification.ts';
import type { StepRecorder } from './step-recorder.ts';
import type { VerifySettings } from './verify-settings.ts';

export const NO_USAGE =
  "the service exposes no usage or charge information (the document doesn't show it, §4; §2.3 " +
  'names quota without showing its fields): check actual usage and the final charge in the ' +
  'administrator console (§9 step 4)';

const RAW_NOTE =
  '(raw, as the service reports them: the document shows neither these fields nor their units, ' +
  '§2.3, §4.5)';

/** Field names read as usage or charge information wherever they appear (never invented, reported raw). */
const USAGE_KEYS = /^(usage|quota|cost|charge|charges|billing|price)$/i;

/** How deep into an answer usage fields are looked for. */
const MAX_DEPTH = 4;

/** §9 step 4: whatever usage or charge information the service exposes, read raw and recorded. */
export async function usageStep(
  client: VideoTaskClient,
  r: StepRecorder,
  final: VideoTask,
  settings: VerifySettings,
): Promise<void> {
  const usage = await findUsage(client, final, settings);
  r.record.usage = usage;
  Object.assign(r.step('usage'), {
    outcome: usage.exposed ? 'passed' : 'skipped',
    detail: usage.detail,
  });
  r.log(`step 4: ${usage.detail}`);
}

/** Looks for usage or charge fields on the OpenAI form, the wrapper and (when asked) the native path. */
async function findUsage(
  client: VideoTaskClient,
  final: VideoTask,
  settings: VerifySettings,
): Promise<UsageFinding> {
  const { signal, redactor } = settings;
  const fields: Record<string, unknown> = {};
  const notes: string[] = [];
  const collect = (prefix: string, value: unknown) => collectUsage(prefix, value, fields, redactor);
  const unreadable = (what: string, error: unknown) =>
    notes.push(`${what} could not be read: ${redactor.redact(messageOf(error))}`);
  collect('task', final);
  try {
    collect('wrapper', await client.getWrapper(final.id, { signal }));
  } catch (error) {
    unreadable(`the wrapper (GET /v1/video/generations/${final.id})`, error);
  }
  if (settings.pluginName !== undefined) {
    try {
      collect('native', await client.getPluginTask(settings.pluginName, final.id, { signal }));
    } catch (error) {
      unreadable('the native status path', error);
    }
  }
  const names = Object.keys(fields);
  const shown = names.map((n) => `${n} = ${JSON.stringify(fields[n])}`).join('; ');
  const found = names.length === 0 ? NO_USAGE : `the service exposes ${shown} ${RAW_NOTE}`;
  return { exposed: names.length > 0, detail: [found, ...notes].join('; '), fields };
}

function collectUsage(
  prefix: string,
  value: unknown,
  into: Record<string, unknown>,
  redactor: Redactor,
  depth = 0,
): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || depth > MAX_DEPTH)
    return;
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const path = `${prefix}.${key}`;
    if (USAGE_KEYS.test(key) && v !== undefined && v !== null && v !== '')
      into[path] = redactor.redactDeep(v);
    else collectUsage(path, v, into, redactor, depth + 1);
  }
}

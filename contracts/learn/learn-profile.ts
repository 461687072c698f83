import { catalogModelIds } from '../../src/client/catalog-ids.ts';
import {
  boundShape,
  MAX_PROFILE_BYTES,
  MAX_SHAPE_WEIGHT,
  mapAnswers,
  mergeForms,
  PROFILE_VERSION,
  type LearnedAnswer,
  type LearnedProfile,
  type ShapeNode,
  type ValueFacts,
} from '../../src/profile/index.ts';
import { UNKNOWN_TASK_ID } from '../checks/probes.ts';
import { targetName } from '../target.ts';
import type { Redactor } from '../../src/redaction/redactor.ts';
import type { Lifecycle } from '../../src/spec/index.ts';
import { learnAnswers, serviceRequestIdHeaderOf, safeForm } from './answers.ts';
import { withoutCallerValues } from './profile-secrets.ts';
import { contentOf, lifecycleOf } from './lifecycle-readings.ts';
import { readRun, type Observation, type Seen } from './run-observer.ts';

export interface LearnContext {
  /** The target's base URL: its host and path prefix are kept, nothing else. */
  readonly baseUrl: string;
  /** The profile's name (default: the host). */
  readonly name?: string | undefined;
  /** Models the run used (the target's, the failing and family ones). */
  readonly models: readonly string[];
  /** Prompts the run sent: named in texts, never kept. */
  readonly prompts: readonly string[];
  /** The model the run's key may not use, submitted to be refused (`--forbidden-model`). */
  readonly forbiddenModel?: string | undefined;
  /** The run's one redaction: every text of the profile passes it. */
  readonly redactor: Redactor;
  /** The spec's `x-lifecycle` the run judged by: how the wrapper's words map to states. */
  readonly lifecycle: Lifecycle;
  readonly now: Date;
}

/**
 * A profile from what one run saw (decisions/018): every answered exchange read as an observation of
 * its cell and situation, merged per cell into a learned answer; the tasks' looks read as the
 * lifecycle; the downloads as the content's delivery. No key, prompt, signed URL or real task ID is
 * kept: values become kinds and forms, texts become templates, a value that varies by caller or reads
 * as a key is kept by its kind alone, and the whole passes the run's redaction.
 */
export function learnProfile(seen: readonly Seen[], context: LearnContext): LearnedProfile {
  const { observations, tasks } = readRun(seen, { forbiddenModel: context.forbiddenModel });
  const taskIds = new Set([...tasks.keys(), UNKNOWN_TASK_ID]);
  const catalog = catalogOf(observations, new Set(context.models));
  const models = new Set([...context.models, ...catalog]);
  const serviceRequestId = serviceRequestIdHeaderOf(observations.map((o) => o.exchange));
  const lifecycle = lifecycleOf(
    [...tasks.values()],
    { taskIds, models, prompts: context.prompts },
    context.lifecycle,
  );
  const factsOf = (o: Observation): ValueFacts => ({
    taskIds,
    models,
    serviceRequestId:
      serviceRequestId === null ? undefined : o.exchange.headers[serviceRequestId.header],
    prompts: context.prompts,
    state:
      o.state === 'n/a' || o.state === 'missing'
        ? undefined
        : { status: o.state, wrapper: lifecycle.wrapperStatuses[o.state] },
  });
  const settled = observations.filter((o) => !movedBetween(o, lifecycle.wrapperStatuses));
  const answers = learnAnswers(settled, factsOf, serviceRequestId?.header);
  const base = new URL(context.baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  const taskForm = [...tasks.keys()]
    .map(safeForm)
    .reduce<string | undefined>(
      (a, b) => (a === undefined ? b : b === undefined ? a : mergeForms(a, b)),
      undefined,
    );
  const suffix = messageSuffixOf(answers);
  const profile: LearnedProfile = {
    version: PROFILE_VERSION,
    name: context.name ?? targetName(context.baseUrl),
    learnedAt: context.now.toISOString(),
    target: { host: base.host, ...(basePath === '' ? {} : { basePath }), runs: 1 },
    taskId: { form: taskForm ?? 'task_{alnum:32}' },
    requestId: serviceRequestId,
    submissions: { multipart: multipartOf(observations) },
    errors: suffix === undefined ? {} : { messageSuffix: suffix },
    models: catalog,
    lifecycle,
    content: contentOf(observations),
    answers,
  };
  // Nothing of a caller's own and nothing that reads as a key (issue 33 item 6); then the run's one
  // redaction over the whole, as the last line.
  const { redactor } = context;
  const kept = withoutCallerValues(profile, (text) => redactor.redact(text) !== text);
  return withinProfileBytes(sendableHeaders(redactor.redactDeep(kept)));
}

/**
 * The profile within `MAX_PROFILE_BYTES`, so that what learn writes a mock reads: each answer's shape
 * is bounded (`boundShape`), and should the answers together still pass the bound (hundreds of cells,
 * each at its bound), every body is bounded again to its share.
 */
function withinProfileBytes(profile: LearnedProfile): LearnedProfile {
  const size = JSON.stringify(profile).length;
  if (size <= MAX_PROFILE_BYTES) return profile;
  const weight = Math.floor((MAX_SHAPE_WEIGHT * MAX_PROFILE_BYTES) / size / 2);
  return mapAnswers(profile, (answer) =>
    'binary' in answer.body || 'none' in answer.body
      ? answer
      : { ...answer, body: boundShape(answer.body, weight) },
  );
}

/**
 * Header values a server can send again: a masked key (`sk-…abcd`) or any other character outside
 * Latin-1 would make every answer carrying it fail to send.
 */
function sendableHeaders(profile: LearnedProfile): LearnedProfile {
  for (const situations of Object.values(profile.answers))
    for (const answer of Object.values(situations)) {
      if (answer === undefined) continue;
      const headers = JSON.stringify(answer.headers);
      if (!/[^\t\x20-\xff]/.test(headers)) continue;
      const fixed = headers.replace(/…/g, '...').replace(/[^\t\x20-\xff]/g, '?');
      (answer as { headers: LearnedAnswer['headers'] }).headers = JSON.parse(
        fixed,
      ) as LearnedAnswer['headers'];
    }
  return profile;
}

/**
 * A wrapper read right after a look whose status is another state's word: the task moved between the
 * two requests (it finished meanwhile), so the answer belongs to neither cell.
 */
function movedBetween(o: Observation, words: Readonly<Partial<Record<string, string>>>): boolean {
  if (o.route !== 'getVideoGeneration' || o.situation !== 'ok') return false;
  const status = (o.exchange.json as { data?: { status?: unknown } } | undefined)?.data?.status;
  if (typeof status !== 'string' || status === words[o.state]) return false;
  return Object.entries(words).some(([state, word]) => state !== o.state && word === status);
}

function catalogOf(observations: readonly Observation[], known: ReadonlySet<string>): string[] {
  const listed = observations.find(
    (o) => o.route === 'listModels' && o.caller === 'owner' && o.exchange.status < 300,
  );
  const json = listed?.exchange.json;
  const gateway = Array.isArray((json as { data?: unknown } | undefined)?.data);
  const ids = gateway ? catalogModelIds(json) : listedAlike(json, known);
  return [...new Set(ids ?? [])].slice(0, 200);
}

/**
 * A catalog of its own shape ("response shape of /v1/models: not shown", §4): the values at the place
 * a model the run knows sits in its list (`models[].name`), not every string it holds.
 */
function listedAlike(json: unknown, known: ReadonlySet<string>, depth = 0): string[] {
  if (json === null || typeof json !== 'object' || depth > 8) return [];
  const items = Array.isArray(json) ? json : Object.values(json);
  if (Array.isArray(json)) {
    const objects = json.filter(
      (i): i is Record<string, unknown> => i !== null && typeof i === 'object',
    );
    const keys = new Set(objects.flatMap((o) => Object.keys(o)));
    for (const key of keys)
      if (objects.some((o) => known.has(o[key] as string)))
        return objects.map((o) => o[key]).filter((v): v is string => typeof v === 'string');
  }
  for (const item of items) {
    const found = listedAlike(item, known, depth + 1);
    if (found.length > 0) return found;
  }
  return [];
}

/** Whether a multipart submission was read (refused as such, not with 415), if one was sent. */
function multipartOf(observations: readonly Observation[]): boolean | null {
  const multipart = observations.filter((o) => o.sent.contentType?.startsWith('multipart/'));
  if (multipart.length === 0) return null;
  return multipart.some((o) => o.exchange.status !== 415);
}

/** The texts at `error.message`, `message`, `detail` or `title` of a learned error body. */
function messageTemplates(node: ShapeNode | undefined, depth = 0): string[] {
  if (node === undefined || depth > 2 || !('object' in node)) return [];
  const found: string[] = [];
  for (const [key, child] of Object.entries(node.object)) {
    if ('kind' in child && child.template !== undefined && /^(message|detail|title)$/.test(key))
      found.push(child.template);
    if (key === 'error') found.push(...messageTemplates(child, depth + 1));
  }
  return found;
}

/** The longest ending kept (the profile's bound). */
const MAX_SUFFIX_CHARS = 200;

/**
 * The ending every error message naming the request ID shares (the gateway's ` (request id: …)`), when
 * at least two learned errors share it: unseen errors of the replay get it too.
 */
function messageSuffixOf(
  answers: Readonly<Record<string, Partial<Record<string, LearnedAnswer>>>>,
): string | undefined {
  const templates = Object.values(answers)
    .flatMap((situations) => Object.values(situations))
    .filter((a): a is LearnedAnswer => a !== undefined && a.status >= 400)
    .flatMap((a) => ('binary' in a.body || 'none' in a.body ? [] : messageTemplates(a.body)))
    .filter((t) => t.includes('{request-id}'));
  if (templates.length < 2) return undefined;
  let suffix = templates[0]!;
  for (const t of templates.slice(1)) {
    let n = 0;
    while (n < suffix.length && n < t.length && suffix.at(-1 - n) === t.at(-1 - n)) n++;
    suffix = suffix.slice(suffix.length - n);
  }
  const start = suffix.search(/\s/);
  const trimmed = start < 0 ? '' : suffix.slice(start);
  return trimmed.includes('{request-id}') && trimmed.length <= MAX_SUFFIX_CHARS
    ? trimmed
    : undefined;
}

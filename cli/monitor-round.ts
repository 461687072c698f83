import {
  ApiError,
  AuthenticationError,
  ConnectionError,
  NotFoundError,
  RateLimitError,
  RequestTimeoutError,
  ServerError,
  type JournalRecord,
  type VideoTaskClient,
} from '../src/client/index.ts';
import { FileJournal } from '../src/node/file-journal.ts';
import { catalogModelIds } from '../src/client/catalog-ids.ts';
import { Redactor } from '../src/redaction/redactor.ts';
import { exitStatusOf } from '../contracts/exit-status.ts';
import { nothingHereAfter } from './service-here.ts';
import type { VideoTask } from '../src/spec/index.ts';

/**
 * One round of day-to-day monitoring (§9: "uses the status endpoints and the model catalog and creates
 * no video tasks"): authentication and the catalog through `GET /v1/models`, the visibility of the
 * expected models, and one status query of each task a journal still has in progress. Nothing is
 * submitted, nothing is polled to completion, the journal is only read.
 */
export interface CheckLine {
  readonly ok: boolean;
  readonly check: string;
  readonly detail: string;
}

export interface RoundResult {
  readonly lines: readonly CheckLine[];
  /**
   * By the rule of every judging command (contracts/exit-status.ts): 1 a check failed; else 2 an
   * input error (the key refused) or nothing could be checked (unreachable, nothing answering like the
   * service at the base URL); else 0.
   */
  readonly status: 0 | 1 | 2;
  /** Why the status is 2 (or what could not be checked besides a failure). */
  readonly why?: string | undefined;
}

/** A failing line that is the input's fault or leaves the round unjudged, not a failed check. */
type Kind = 'input' | 'unjudged';

export interface RoundOptions {
  readonly expectModels: readonly string[];
  readonly journal?: string | undefined;
  /** The keys every line is redacted of, the client's API key first (asked with on a 404). */
  readonly secrets: readonly string[];
  readonly signal?: AbortSignal | undefined;
  /** Waits between retries of a status query that failed temporarily (§7). Default 500 ms, 1 s. */
  readonly retryDelaysMs?: readonly number[] | undefined;
}

const NOT_LISTED_HINT =
  'the administrator checks §9 steps 1–2: the binding to a plugin channel ' +
  '(type 61) with the enabled plugin version, the group opening, the ' +
  "token's permission, the price";

export async function monitorRound(
  client: VideoTaskClient,
  options: RoundOptions,
): Promise<RoundResult> {
  const lines: CheckLine[] = [];
  const kinds = new Map<CheckLine, Kind>();
  const redactor = new Redactor(options.secrets);
  const say = (ok: boolean, check: string, detail: string, kind?: Kind) => {
    const line = { ok, check, detail: redactor.redact(detail) };
    lines.push(line);
    if (kind !== undefined) kinds.set(line, kind);
  };
  const result = (): RoundResult => roundResult(lines, kinds);

  // Authentication and the catalog: one GET /v1/models.
  const catalog = await catalogChecks(client, options, say);
  if (catalog === 'stop') return result();
  const listed = catalog;
  for (const model of options.expectModels) {
    if (listed === undefined)
      say(false, `model:${model}`, 'not checked: the catalog could not be read');
    else if (listed.has(model)) say(true, `model:${model}`, 'listed by /v1/models for this key');
    else say(false, `model:${model}`, `not listed by /v1/models for this key: ${NOT_LISTED_HINT}`);
  }

  if (options.journal !== undefined) await journalChecks(client, options.journal, options, say);
  return result();
}

/**
 * Authentication and the catalog through one `GET /v1/models`: the models it lists for this key,
 * undefined when it could not be read, or `stop` when the round can check nothing more (unreachable,
 * or nothing at the base URL answering like the service).
 */
async function catalogChecks(
  client: VideoTaskClient,
  options: RoundOptions,
  say: Say,
): Promise<ReadonlySet<string> | undefined | 'stop'> {
  const { signal } = options;
  try {
    const listed = new Set(catalogModelIds(await client.listModels({ signal })));
    say(true, 'auth', `GET /v1/models answered 200 to the key`);
    say(
      true,
      'catalog',
      `${listed.size} model(s) listed for this key${listed.size === 0 ? '' : `: ${preview([...listed])}`}`,
    );
    return listed;
  } catch (error) {
    signal?.throwIfAborted();
    const message = (error as Error).message;
    if (error instanceof ConnectionError || error instanceof RequestTimeoutError) {
      say(false, 'reach', `${client.baseUrl} is unreachable: ${message}`, 'unjudged');
      return 'stop';
    }
    const elsewhere = await nothingHereAfter(error, client.baseUrl, options.secrets[0]);
    if (elsewhere !== undefined) {
      say(false, 'reach', elsewhere, 'unjudged');
      return 'stop';
    }
    return catalogRefused(error, client.baseUrl, say);
  }
}

/**
 * What a failed `GET /v1/models` from something that answers like the service says, line by line.
 * Only a 403 says the key is known (§5); a 404 means nothing at the base URL serves the catalog, so
 * the key was never asked about (issue 35): the round stops, unjudged.
 */
function catalogRefused(error: unknown, baseUrl: string, say: Say): 'stop' | undefined {
  const message = (error as Error).message;
  if (error instanceof NotFoundError) {
    say(
      false,
      'reach',
      `GET /v1/models answered HTTP 404 at ${baseUrl}: nothing there serves the catalog, so the ` +
        'key could not be checked; check the base URL (the address without /v1, §9)',
      'unjudged',
    );
    return 'stop';
  }
  if (error instanceof AuthenticationError)
    say(false, 'auth', `the key was refused (HTTP 401): ${message}; check --api-key (§5)`, 'input');
  else if (error instanceof ApiError && error.status === 403) {
    // A 403 is the gateway knowing the key and refusing it the catalog (§5): the key itself is valid.
    say(true, 'auth', 'the key is known (GET /v1/models answered HTTP 403, not 401)');
    say(false, 'catalog', `GET /v1/models failed: ${message}`);
  } else if (error instanceof ApiError)
    say(
      false,
      'catalog',
      `GET /v1/models failed: ${message}; the key could not be checked (HTTP ${error.status} ` +
        'says nothing of it)',
    );
  else say(false, 'catalog', `GET /v1/models did not answer a model list: ${message}`);
  return undefined;
}

/** The round's status and why, by the one rule (contracts/exit-status.ts). */
function roundResult(
  lines: readonly CheckLine[],
  kinds: ReadonlyMap<CheckLine, Kind>,
): RoundResult {
  const failing = lines.filter((l) => !l.ok);
  const of = (kind: Kind) =>
    failing.filter((l) => kinds.get(l) === kind).map((l) => `${l.check}: ${l.detail}`);
  const { code, why } = exitStatusOf({
    failures: failing.filter((l) => !kinds.has(l)).length,
    inputErrors: of('input'),
    unjudged: of('unjudged'),
  });
  return { lines, status: code, why };
}

type Say = (ok: boolean, check: string, detail: string, kind?: Kind) => void;
type ActiveRecord = JournalRecord & { taskId: string };

/** The journal's line, then one status query of each task it still has in progress. */
async function journalChecks(
  client: VideoTaskClient,
  path: string,
  options: RoundOptions,
  say: Say,
): Promise<void> {
  const active = await journalSummary(path, say);
  if (active === undefined) return;
  for (const record of active) await taskCheck(client, record, { path, options, say });
}

/** Reads the journal and says what it holds; its tasks in progress, or undefined when it is unreadable. */
async function journalSummary(path: string, say: Say): Promise<ActiveRecord[] | undefined> {
  const journal = new FileJournal(path);
  let records: readonly JournalRecord[];
  let torn: boolean;
  try {
    ({ records, tornTail: torn } = await journal.read());
  } catch (error) {
    say(false, 'journal', `${path} cannot be read: ${(error as Error).message}`);
    return undefined;
  } finally {
    await journal.close();
  }
  const active = records.filter(
    (r): r is ActiveRecord => r.state === 'active' && r.taskId !== undefined,
  );
  const byHand = records.filter((r) => r.state === 'submitting' || r.state === 'unconfirmed');
  const settled = records.length - active.length - byHand.length;
  const notes = [
    `${active.length} task(s) in progress, ${settled} settled`,
    ...(byHand.length === 0
      ? []
      : [
          `${byHand.length} submission(s) to check by hand by client request ID ` +
            `(${byHand.map((r) => r.clientRequestId).join(', ')}), never resubmitted (§7)`,
        ]),
    ...(torn ? ['its last line was cut off by a crash and is ignored'] : []),
  ];
  say(true, 'journal', `${path}: ${notes.join('; ')}`);
  return active;
}

/** One status query of a journaled task in progress, and what its answer means for the administrator. */
async function taskCheck(
  client: VideoTaskClient,
  record: ActiveRecord,
  context: { path: string; options: RoundOptions; say: Say },
): Promise<void> {
  const { path, options, say } = context;
  const check = `task:${record.taskId}`;
  let task: VideoTask;
  try {
    task = await queryOnce(client, record.taskId, options);
  } catch (error) {
    options.signal?.throwIfAborted();
    say(false, check, queryFailure(error));
    return;
  }
  const what = `${task.status} ${task.progress}% (${record.model}, submitted ${record.submittedAt})`;
  if (task.status === 'queued' || task.status === 'in_progress') say(true, check, what);
  else if (task.status === 'completed')
    say(true, check, `${what}: record it in the journal with \`videotask wait --journal ${path}\``);
  else if (task.status === 'failed')
    say(
      false,
      check,
      `${what}: error ${task.error?.code ?? '(no code)'}: ` +
        `${task.error?.message ?? ''}; record it with \`videotask wait --journal ` +
        `${path}\` and investigate by the message (§7)`,
    );
  else
    say(
      true,
      check,
      `${what}: state not recognised; keep querying at a lower rate, or ask an administrator if it persists (§3)`,
    );
}

/** Why a status query failed, as the check's detail. */
function queryFailure(error: unknown): string {
  const message = (error as Error).message;
  if (
    error instanceof NotFoundError ||
    (error instanceof ApiError && error.code === 'task_not_exist')
  )
    return (
      `not found for this key (HTTP ${error.status}): ${message}; it is ` +
      `missing, or was submitted with another key (§5)`
    );
  if (error instanceof ConnectionError || error instanceof RequestTimeoutError)
    return `no answer: ${message}`;
  return `the status query failed: ${message}`;
}

/** One status query; a temporary failure (5xx, 429, no answer) is retried a limited number of times (§7). */
async function queryOnce(
  client: VideoTaskClient,
  taskId: string,
  options: RoundOptions,
): Promise<VideoTask> {
  const delays = options.retryDelaysMs ?? [500, 1_000];
  for (let attempt = 0; ; attempt++) {
    try {
      return await client.getVideo(taskId, { signal: options.signal });
    } catch (error) {
      const temporary =
        error instanceof ServerError ||
        error instanceof RateLimitError ||
        error instanceof ConnectionError ||
        error instanceof RequestTimeoutError;
      const delay = delays[attempt];
      if (!temporary || delay === undefined || options.signal?.aborted) throw error;
      await new Promise((resolve) =>
        setTimeout(
          resolve,
          error instanceof RateLimitError ? Math.max(delay, error.retryAfterMs ?? 0) : delay,
        ),
      );
    }
  }
}

function preview(ids: readonly string[]): string {
  return ids.length <= 12 ? ids.join(', ') : `${ids.slice(0, 12).join(', ')}, …`;
}

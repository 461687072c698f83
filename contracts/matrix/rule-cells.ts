import type { CellPattern, Caller, CellState } from './cells.ts';
import type { RouteId } from './routes.ts';
import { LIFECYCLE } from '../../src/generated/client-contract.ts';
import { operationsWith } from '../../src/spec/route-roles.ts';

/**
 * Where each rule of `x-lifecycle.rules` applies: the cells of the observation space in which the suite
 * judges it. The suite must judge every rule in every cell the run observes (the coverage report names
 * any rule an observed cell left unjudged), and the self-proof generates one mutant of the mock per
 * (rule, cell) listed here.
 */
const REAL: readonly CellState[] = LIFECYCLE.states;
const ANY_TASK: readonly CellState[] = [...REAL, 'missing'];
const UNFINISHED: readonly CellState[] = LIFECYCLE.pollAgain;
const NOT_COMPLETED: readonly CellState[] = REAL.filter((s) => s !== 'completed');
const NO_TASK: readonly CellState[] = ['n/a'];
const OWNER: readonly Caller[] = ['owner'];
const KEYLESS: readonly Caller[] = ['none', 'invalid'];
const EVERYONE: readonly Caller[] = ['owner', 'other', 'none', 'invalid'];

// The routes by their role in the spec (x-role, src/spec/route-roles.ts).
const SUBMITS = operationsWith({ kind: 'submit', form: 'openai' });
const ALL_SUBMITS = operationsWith({ kind: 'submit' });
const QUERIES = operationsWith({ kind: 'query' });
const CONTENT = operationsWith({ kind: 'content' });
const CATALOG = operationsWith({ kind: 'catalog' });
const TASK_ROUTES: readonly RouteId[] = [...QUERIES, ...CONTENT];
const OPENAI = operationsWith({ kind: 'query', form: 'openai' });
const WRAPPER = operationsWith({ kind: 'query', form: 'wrapper' });
const NATIVE_SUBMIT = operationsWith({ kind: 'submit', form: 'native' });
const NATIVE_QUERY = operationsWith({ kind: 'query', form: 'native' });

const at = (
  routes: readonly RouteId[],
  states: readonly CellState[],
  callers: readonly Caller[],
): CellPattern => ({ routes, states, callers });

/** The OpenAI-form task object (§2.2): every query of the owner's task, and every submission answer. */
const TASK_OBJECTS = [at(OPENAI, REAL, OWNER), at(SUBMITS, NO_TASK, OWNER)];

/**
 * Every answer that refuses: whoever has no (valid) key, another user, a missing task, unfinished
 * content, an empty prompt or a missing or mistyped field, a model the key may not use, a file
 * upload, a native submission that mixes the formats.
 */
const REFUSALS = [
  at([...TASK_ROUTES, ...ALL_SUBMITS, ...CATALOG], ANY_TASK.concat(NO_TASK), KEYLESS),
  at(TASK_ROUTES, REAL, ['other']),
  at(TASK_ROUTES, ['missing'], OWNER),
  at(CONTENT, NOT_COMPLETED, OWNER),
  at(ALL_SUBMITS, NO_TASK, OWNER),
];

/** A completed task's download by its owner: where its bytes are judged (length, ranges, HEAD). */
const DOWNLOAD = [at(CONTENT, ['completed'], OWNER)];

export const RULE_CELLS = {
  'task-id-equals-id': TASK_OBJECTS,
  'object-is-video': TASK_OBJECTS,
  'model-echoed': TASK_OBJECTS,
  'progress-range': TASK_OBJECTS,
  'status-documented': TASK_OBJECTS,
  'presence-always': TASK_OBJECTS,
  'presence-on-submission': [at(SUBMITS, NO_TASK, OWNER)],
  'presence-when-completed': [at(OPENAI, ['completed'], OWNER)],
  'presence-when-failed': [at(OPENAI, ['failed'], OWNER)],
  'wrapper-progress-format': [at(WRAPPER, REAL, OWNER)],
  'wrapper-success-code': [at(WRAPPER, REAL, OWNER)],
  'wrapper-failure-status': [at(WRAPPER, ['failed'], OWNER)],
  // §1 over whole bodies: every JSON answer about a task, whoever asks, and every submission answer.
  'public-id-only': [
    at(QUERIES, ANY_TASK, EVERYONE),
    at(
      CONTENT,
      ANY_TASK.filter((s) => s !== 'completed'),
      EVERYONE,
    ),
    at(CONTENT, ['completed'], ['other', 'none', 'invalid']),
    at(ALL_SUBMITS, NO_TASK, OWNER),
  ],
  'result-url-address': [at(OPENAI, REAL, OWNER), at(SUBMITS, NO_TASK, OWNER)],
  'unix-timestamps': TASK_OBJECTS,
  'wrapper-unix-timestamps': [at(WRAPPER, REAL, OWNER)],
  'wrapper-result-url-address': [at(WRAPPER, REAL, OWNER)],
  'content-after-completion': [at(CONTENT, NOT_COMPLETED, OWNER)],
  'content-json-errors': [
    at(CONTENT, [...NOT_COMPLETED, 'missing'], OWNER),
    at(CONTENT, ANY_TASK, ['other', 'none', 'invalid']),
  ],
  'content-binary': [at(CONTENT, ['completed'], OWNER)],
  'owner-only': [at(TASK_ROUTES, REAL, ['other'])],
  'unknown-task-error': [at(TASK_ROUTES, ['missing'], OWNER)],
  'submission-answers-at-once': [at(ALL_SUBMITS, NO_TASK, OWNER)],
  'submission-status-queued': [at(SUBMITS, NO_TASK, OWNER)],
  'submission-status-200': [at(SUBMITS, NO_TASK, OWNER)],
  'catalog-lists-model': [at(CATALOG, NO_TASK, OWNER)],
  'empty-prompt-invalid': [at(SUBMITS, NO_TASK, OWNER)],
  'required-fields': [at(SUBMITS, NO_TASK, OWNER)],
  // §5: a model the key may not use, on both documented submit paths (observed with --forbidden-model).
  'model-permissions': [at(SUBMITS, NO_TASK, OWNER)],
  // §2.1: a file uploaded for the second family, on the entry it uses (observed with a family model).
  'multipart-upload-refused': [at(['createVideo'], NO_TASK, OWNER)],
  'auth-required': [
    at([...TASK_ROUTES, ...ALL_SUBMITS, ...CATALOG], ANY_TASK.concat(NO_TASK), KEYLESS),
  ],
  // Sequence rules take the cell of the state a task was in before the step they judge…
  'terminal-stays-terminal': [at(OPENAI, LIFECYCLE.terminal, OWNER)],
  'legal-transition': [at(OPENAI, UNFINISHED, OWNER)],
  // …or of the poll that showed the value they judge.
  'progress-monotonic': [at(OPENAI, REAL, OWNER)],
  'progress-complete': [at(OPENAI, ['completed'], OWNER)],
  'timestamps-ordered': [at(OPENAI, ['completed'], OWNER), at(WRAPPER, REAL, OWNER)],
  'forms-agree': [at(WRAPPER, REAL, OWNER)],
  'error-status-code': REFUSALS,
  'error-envelope': REFUSALS,
  // The second family's native path (§4.5): a mixed body refused, the upstream's shapes and statuses.
  'native-formats-not-mixed': [at(NATIVE_SUBMIT, NO_TASK, OWNER)],
  'native-shape': [at(NATIVE_SUBMIT, NO_TASK, OWNER), at(NATIVE_QUERY, REAL, OWNER)],
  'native-status-mapping': [at(NATIVE_QUERY, REAL, OWNER)],
  'content-length-matches': DOWNLOAD,
  'content-range-reassembles': DOWNLOAD,
  'content-head-agrees': DOWNLOAD,
  // Where §7 expects a 429 (submission); one seen anywhere else is judged where it is seen.
  'rate-limit-retry-after': [at(ALL_SUBMITS, NO_TASK, OWNER)],
} as const satisfies Readonly<Record<string, readonly CellPattern[]>>;

export type CellRuleId = keyof typeof RULE_CELLS;

/** Rules judged over a whole run rather than in a cell, and why. */
export const RUN_WIDE_RULES = {
  'no-resubmission':
    'a property of the suite itself (it never resubmits a task and stays within its budget), judged once per run',
} as const satisfies Readonly<Record<string, string>>;

/**
 * Rules that apply in their cells only when the deployment does something it need not do: left
 * unjudged there, they are no gap in the coverage (a run that saw no 429 has nothing to judge), and the
 * cell says why (`notJudged`).
 */
export const CONDITIONAL_RULES: Readonly<Partial<Record<CellRuleId, string>>> = {
  'rate-limit-retry-after': 'judged when a 429 is seen',
  'content-range-reassembles': 'judged when the deployment honours Range (206)',
  'content-head-agrees': 'judged when the deployment answers HEAD',
  'content-length-matches':
    'judged when a download announces Content-Length (a chunked one need not: RFC 9112 §6.1)',
};

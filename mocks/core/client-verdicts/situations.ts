import { videoStatusValues } from '../../../src/generated/openapi.ts';
import type { VideoStatus } from '../../../src/spec/lifecycle.ts';
import type { Form } from './observation.ts';

/**
 * The client-facing situations a client's tests should show it, each with the way to produce it with
 * this mock: the client coverage ("your tests never showed your client a failed task").
 */
export interface Situation {
  readonly id: string;
  readonly description: string;
  /** The section of the service document it comes from. */
  readonly section: string;
  /** How to make the mock produce it. */
  readonly produce: string;
  /** Counted only for callers that used this form or the second family (else not applicable). */
  readonly appliesTo?: 'wrapper' | 'native' | 'second-family' | undefined;
}

const FORM_NAMES: Readonly<Record<Form, string>> = {
  openai: 'the OpenAI form (GET /v1/videos/{id})',
  wrapper: 'the task wrapper (GET /v1/video/generations/{id})',
  native: 'the native path (GET …/tasks/{id})',
};

const PRODUCE_STATE: Readonly<Record<VideoStatus, string>> = {
  queued: 'query a task right after submitting it',
  in_progress:
    'query a task while it runs (a few seconds after submitting; `[mock:slow]` runs for minutes)',
  completed: 'query a task once it is done (the default scenario; move a manual clock 10 minutes)',
  failed: '`[mock:fail]` in the prompt (or `X-Mock-Scenario: fail`; `fail:CODE` for an error code)',
  unknown:
    '`[mock:unknown]` in the prompt (`unknown:SECONDS` for how long; the `observed` profile starts tasks so)',
};

const FORMS: readonly Form[] = ['openai', 'wrapper', 'native'];

/** Each state on each query form (§3 × §2.2, §2.3, §4.5), then the situations of §7, §4.4, §5 and §1. */
export const SITUATIONS: readonly Situation[] = [
  ...FORMS.flatMap((form) =>
    videoStatusValues.map((state): Situation => ({
      id: stateSituation(form, state),
      description: `a task \`${state}\` on ${FORM_NAMES[form]}`,
      section: '§3',
      produce: PRODUCE_STATE[state],
      appliesTo: form === 'openai' ? undefined : form,
    })),
  ),
  {
    id: 'submission-429',
    description: 'a 429 on a submission',
    section: '§7',
    produce: '`[mock:rate-limit]` in the prompt (or `--rate-limit N/S` / `rateLimit`)',
  },
  {
    id: 'query-5xx',
    description: 'a temporary 5xx on a status query',
    section: '§7',
    produce: '`[mock:flaky]` in the prompt (every 2nd query of the task answers 503)',
  },
  {
    id: 'lost-answer',
    description: 'a submission whose answer was lost',
    section: '§7',
    produce: '`[mock:lost-answer]` in the prompt (the task exists; its answer never arrives)',
  },
  {
    id: 'content-before-completion',
    description: 'the content asked for before the task completed',
    section: '§3',
    produce:
      '`GET /v1/videos/{id}/content` while the task runs, or of a `[mock:fail]` task (this breaks ' +
      '`content-after-completion` on purpose: `ignore` it in that test)',
  },
  {
    id: 'content-download',
    description: 'the content of a completed task downloaded',
    section: '§4.4',
    produce: 'query a task until it says `completed`, then `GET /v1/videos/{id}/content`',
  },
  {
    id: 'long-running',
    description: 'a task still running a minute after its submission (polled past §8’s ceiling)',
    section: '§8',
    produce: '`[mock:slow]` in the prompt (the task runs for minutes), polled to its end',
  },
  {
    id: 'expired-result',
    description: 'an expired temporary result address (410)',
    section: '§1',
    produce:
      '`--artifact-ttl S` (`artifactTtlMs`), then fetch `metadata.url` after the clock passed it',
  },
  {
    id: 'content-redirect',
    description: 'the content delivered by a redirect',
    section: '§4.4',
    produce: '`--content-redirect` (`contentRedirect: true`)',
  },
  {
    id: 'refused-400',
    description: 'a submission refused as invalid (400)',
    section: '§7',
    produce: 'an empty prompt, or `[mock:fail-at-submit]` in the prompt',
  },
  {
    id: 'refused-401',
    description: 'a request refused for its key (401)',
    section: '§5',
    produce: 'a key the mock does not know, such as `sk-not-a-mock-key`',
  },
  {
    id: 'refused-403',
    description: 'a submission refused for permission or quota (403)',
    section: '§5',
    produce: 'key `sk-mock-limited` with a model other than video-lite-v1, or key `sk-mock-broke`',
  },
  {
    id: 'task-not-found',
    description: 'a query of a task that is missing or another user’s',
    section: '§5',
    produce:
      'query an ID the mock never gave, or a task another user submitted: submit with `sk-mock-bob` ' +
      '(with `sk-mock-limited` if your client calls as bob) and query with your client’s key (this ' +
      'breaks `keep-task-id` on purpose: `ignore` it in that test)',
  },
  {
    id: 'second-family-unbound',
    description: 'a second-family submission while the family is unbound',
    section: '§1',
    produce:
      'submit `alt-video-v2` while unbound (the start-up state; `PUT /__mock/family` binds it)',
    appliesTo: 'second-family',
  },
  {
    id: 'second-family-references',
    description: 'a second-family submission with reference URLs (`metadata.content`)',
    section: '§2.1',
    produce:
      'submit `alt-video-v2` with `metadata.content: [{"type":"image_url","image_url":' +
      '{"url":"https://…"}}]` while bound (`PUT /__mock/family`)',
    appliesTo: 'second-family',
  },
];

export function stateSituation(form: Form, state: VideoStatus): string {
  return `${form}:${state}`;
}

const BITS = new Map(SITUATIONS.map((s, i) => [s.id, 1 << i]));
if (SITUATIONS.length > 31) throw new Error('client coverage: more situations than bits');

const STATE_BITS = Object.fromEntries(
  FORMS.map((form) => [
    form,
    Object.fromEntries(videoStatusValues.map((s) => [s, situationBit(stateSituation(form, s))])),
  ]),
) as Readonly<Record<Form, Readonly<Record<VideoStatus, number>>>>;

/** The bit of "a task `state` on `form`" (no string built: status queries are the hot path). */
export function stateBit(form: Form, state: VideoStatus): number {
  return STATE_BITS[form][state];
}

/** The bit of a situation in a caller's `met` mask. */
export function situationBit(id: string): number {
  const bit = BITS.get(id);
  if (bit === undefined) throw new Error(`client coverage: no situation "${id}"`);
  return bit;
}

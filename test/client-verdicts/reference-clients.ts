// Reference clients for the client verdicts' self-proof: one that keeps every rule of the service
// document (submit once, poll by §8, retry as §7 says, follow redirects), and, for each judged rule of
// the spec's x-client-rules, that same client with one thing done wrong.
import { randomUUID } from 'node:crypto';
import type { MockOptions } from '../../mocks/index.ts';
import type { RuleId } from '../../mocks/core/client-verdicts/rule-table.ts';
import type { Answer, CallOptions, Wire } from './wire.ts';

export const KITE = { model: 'video-pro-v1', prompt: 'a red kite' } as const;
const FINAL = new Set(['completed', 'failed']);

export interface PollPlan {
  /** The wait before query n (1-based), given the status read last. Default §8: 5 s × 1.5 to 30 s, ×2 on `unknown`. */
  readonly wait?: (n: number, last: string | undefined) => number;
  /** Queries at most (default 60, §8). */
  readonly attempts?: number;
  /** 5xx answers in a row retried (default 3, §7: a limited number of times). */
  readonly retries5xx?: number;
  /** Queries after the task is told finished (default 0: the loop stops, §3). */
  readonly after?: number;
  /** The query path (default the OpenAI form). */
  readonly path?: (id: string) => string;
}

export const recommendedWait = (n: number, last: string | undefined): number =>
  Math.round(Math.min(5_000 * 1.5 ** (n - 1), 30_000) * (last === 'unknown' ? 2 : 1));

/** A client that keeps every rule; its steps take options for the one thing a misbehaviour changes. */
export class Session {
  constructor(readonly wire: Wire) {}

  /** One submission with its own request ID (§8: the client keeps it), JSON (§5). */
  submit(
    body: object = KITE,
    options: CallOptions & { path?: string; clientRequestId?: string | null } = {},
  ): Promise<Answer> {
    const clientRequestId =
      options.clientRequestId === undefined ? randomUUID() : options.clientRequestId;
    const headers = {
      ...(clientRequestId === null ? {} : { 'x-request-id': clientRequestId }),
      ...options.headers,
    };
    const call: CallOptions = options.raw === undefined ? { body } : { raw: options.raw };
    const path = options.path ?? '/v1/video/generations';
    return this.wire.call('POST', path, { key: options.key, ...call, headers });
  }

  /** The §8 loop: waits, then queries; stops on `completed` and `failed`; retries a 5xx a few times (§7). */
  async poll(
    id: string,
    plan: PollPlan = {},
  ): Promise<{ status: string | undefined; queries: number }> {
    const wait = plan.wait ?? recommendedWait;
    const path = plan.path ?? ((task: string) => `/v1/videos/${task}`);
    let last: string | undefined;
    let failures = 0;
    let queries = 0;
    for (let n = 1; n <= (plan.attempts ?? 60); n++) {
      await this.wire.advance(wait(n, last));
      const answer = await this.wire.call('GET', path(id));
      queries++;
      if (answer.status >= 500) {
        if (++failures > (plan.retries5xx ?? 3)) break;
        continue;
      }
      failures = 0;
      last = statusOf(answer);
      if (last !== undefined && FINAL.has(last)) break;
    }
    for (let extra = 0; extra < (plan.after ?? 0); extra++) {
      await this.wire.advance(30_000);
      await this.wire.call('GET', path(id));
    }
    return { status: last, queries };
  }

  /** `GET …/content`, following a redirect (§4.4) unless told not to. */
  async download(id: string, follow = true): Promise<Answer> {
    const answer = await this.wire.call('GET', `/v1/videos/${id}/content`);
    const location = answer.headers['location'];
    if (!follow || answer.status < 300 || answer.status > 399 || location === undefined)
      return answer;
    return this.wire.call('GET', this.wire.local(location), { key: null });
  }

  /**
   * A submission retried as §7 says after a 429: the same request ID, each wait at least the
   * `Retry-After` (real seconds: that many × speed on the mock's clock) and doubling from 1 s, at
   * most `retries` times. The last answer.
   */
  async submitWithBackoff(body: object, retries = 3): Promise<Answer> {
    const clientRequestId = randomUUID();
    let answer = await this.submit(body, { clientRequestId });
    for (let retry = 1; retry <= retries && answer.status === 429; retry++) {
      const askedMs = Number(answer.headers['retry-after'] ?? '0') * 1000;
      await this.wire.advance(Math.max(askedMs, 1_000 * 2 ** (retry - 1)) * this.wire.speed);
      answer = await this.submit(body, { clientRequestId });
    }
    return answer;
  }

  /** Submit, poll to the end, download a completed video: the whole job done right. */
  async job(body: object = KITE, plan: PollPlan = {}): Promise<string> {
    const answer = await this.submit(body);
    const id = idOf(answer);
    const { status } = await this.poll(id, plan);
    if (status === 'completed') await this.download(id);
    return id;
  }
}

export function idOf(answer: Answer): string {
  const id = (answer.body as { id?: unknown } | undefined)?.id;
  if (typeof id !== 'string')
    throw new Error(`no task id in ${answer.status} ${JSON.stringify(answer.body)}`);
  return id;
}

function statusOf(answer: Answer): string | undefined {
  const body = answer.body as { status?: unknown; data?: { status?: unknown } } | undefined;
  const status = body?.status ?? body?.data?.status;
  if (typeof status !== 'string') return undefined;
  const lower = status.toLowerCase();
  return lower === 'success' ? 'completed' : lower === 'failure' ? 'failed' : lower;
}

/** One thing done wrong by the reference client, and the mock it needs. */
export interface Misbehaviour {
  /** What it does wrong, as a test name. */
  readonly does: string;
  readonly options?: MockOptions;
  readonly key?: string;
  readonly run: (s: Session) => Promise<void>;
}

const ALT = { model: 'alt-video-v2', prompt: 'a paper boat', metadata: { duration: 5 } };
const TWO_SECONDS = () => 2_000;

/** A second-family submission with one reference image (§2.1 `metadata.content`). */
export const withReference = (url: string) => ({
  ...ALT,
  metadata: { ...ALT.metadata, content: [{ type: 'image_url', image_url: { url } }] },
});
const NATIVE_PATH = '/alt-video/api/v3/contents/generations/tasks';
const BOUNDARY = 'XyZ';
const form = (fields: Record<string, string>): string =>
  Object.entries(fields)
    .map(
      ([name, value]) =>
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    )
    .join('')
    .concat(`--${BOUNDARY}--\r\n`);
const FORM_TYPE = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };

/**
 * For every judged rule of `x-client-rules`, the reference client with that one rule broken (typed by
 * `RuleId`: a rule added to the judges without a misbehaviour here does not compile).
 */
export const MISBEHAVIOURS: Readonly<Record<RuleId, Misbehaviour>> = {
  'no-resubmission': {
    does: 'submits the same task again while it is in progress',
    run: async (s) => {
      const id = idOf(await s.submit());
      await s.wire.advance(10_000);
      await s.wire.call('GET', `/v1/videos/${id}`);
      await s.submit();
      await s.poll(id);
    },
  },
  'no-direct-retry-after-4xx': {
    does: 'sends a submission refused with 400 again, unchanged',
    run: async (s) => {
      const empty = { model: 'video-pro-v1', prompt: '' };
      await s.submit(empty);
      await s.wire.advance(1_000);
      await s.submit(empty);
      await s.job();
    },
  },
  'backoff-after-429': {
    does: 'retries a 429 every 100 ms without backing off',
    run: async (s) => {
      const limited = { model: 'video-pro-v1', prompt: 'a kite [mock:rate-limit]' };
      const clientRequestId = randomUUID();
      for (let attempt = 0; attempt < 4; attempt++) {
        await s.submit(limited, { clientRequestId });
        await s.wire.advance(100);
      }
    },
  },
  'query-5xx-retry-limited': {
    does: 'retries a status query that keeps answering 503 without limit',
    run: async (s) => {
      const id = idOf(await s.submit({ model: 'video-pro-v1', prompt: 'a kite [mock:flaky:1]' }));
      await s.poll(id, { retries5xx: 20, attempts: 14 });
    },
  },
  'query-5xx-no-new-task': {
    does: 'submits a new task when a status query answers 503',
    run: async (s) => {
      const flaky = { model: 'video-pro-v1', prompt: 'a kite [mock:flaky:1]' };
      const id = idOf(await s.submit(flaky));
      await s.wire.advance(5_000);
      await s.wire.call('GET', `/v1/videos/${id}`);
      await s.submit(flaky);
    },
  },
  'lost-answer-retry-limited': {
    does: 'repeats a submission whose answer is lost, again and again',
    run: async (s) => {
      const lost = { model: 'video-pro-v1', prompt: 'a kite [mock:lost-answer]' };
      const clientRequestId = randomUUID();
      for (let attempt = 0; attempt < 5; attempt++) {
        await s.submit(lost, { clientRequestId });
        await s.wire.advance(5_000 * 2 ** attempt);
      }
    },
  },
  'lost-answer-idempotency-records': {
    does: 'repeats a submission whose answer was lost under a new request ID',
    run: async (s) => {
      const lost = { model: 'video-pro-v1', prompt: 'a kite [mock:lost-answer]' };
      await s.submit(lost);
      await s.wire.advance(30_000);
      await s.submit(lost);
    },
  },
  'unknown-slows-polling': {
    does: 'polls faster (every 5 s) once the task says unknown',
    run: async (s) => {
      await s.job(
        { model: 'video-pro-v1', prompt: 'a kite [mock:unknown:60]' },
        {
          wait: (n, last) =>
            last === 'unknown' ? 5_000 : n === 1 ? 10_000 : recommendedWait(n, last),
        },
      );
    },
  },
  'stop-polling-when-finished': {
    does: 'keeps polling a completed task',
    run: async (s) => {
      const id = idOf(await s.submit());
      await s.poll(id, { after: 5 });
    },
  },
  'follow-content-redirects': {
    does: 'does not follow the redirect of the content download',
    options: { contentRedirect: true },
    run: async (s) => {
      const id = idOf(await s.submit());
      await s.poll(id);
      await s.download(id, false);
      await s.wire.call('GET', '/v1/models');
    },
  },
  'authorization-header': {
    does: 'sends a request without its key',
    run: async (s) => {
      await s.wire.call('GET', '/v1/models', { key: null });
      await s.job();
    },
  },
  'json-content-type': {
    does: 'sends a JSON body as text/plain',
    run: async (s) => {
      await s.submit(KITE, {
        raw: JSON.stringify(KITE),
        headers: { 'content-type': 'text/plain' },
      });
      await s.job();
    },
  },
  'second-family-no-asset-references': {
    does: 'passes an asset:// reference to the second family',
    options: { familyBound: true },
    key: 'sk-mock-vip',
    run: async (s) => {
      const content = [{ type: 'image_url', image_url: { url: 'asset://ref-7731' } }];
      await s.submit({ ...ALT, metadata: { ...ALT.metadata, content } }, { path: '/v1/videos' });
      await s.job(ALT);
    },
  },
  'second-family-no-multipart': {
    does: 'sends a second-family submission as multipart/form-data',
    options: { familyBound: true, profile: 'observed' },
    key: 'sk-mock-vip',
    run: async (s) => {
      const raw = form({ model: 'alt-video-v2', prompt: 'a paper boat', duration: '5' });
      await s.submit(ALT, { raw, headers: FORM_TYPE, path: '/v1/videos' });
    },
  },
  'native-formats-not-mixed': {
    does: 'mixes OpenAI-form fields into a native-path submission',
    options: { familyBound: true },
    key: 'sk-mock-vip',
    run: async (s) => {
      const mixed = {
        model: 'alt-video-v2',
        prompt: 'a paper boat',
        content: [{ type: 'text', text: 'a paper boat' }],
      };
      await s.submit(mixed, { path: NATIVE_PATH });
    },
  },
  'poll-interval': {
    does: 'polls every 2 s',
    run: async (s) => {
      await s.job(KITE, { wait: TWO_SECONDS });
    },
  },
  'poll-attempts': {
    does: 'polls a task that never finishes more than 60 times',
    run: async (s) => {
      const id = idOf(await s.submit({ model: 'video-pro-v1', prompt: 'a kite [mock:stuck]' }));
      await s.poll(id, { attempts: 61 });
    },
  },
  'poll-growth': {
    // 20 s, not 5 s: at --speed 100 the timing tolerance (1 s of mock time) leaves a flat loop of
    // short waits the benefit of the doubt (docs/client-verdicts.md: the clock).
    does: 'polls a running task every 20 s, never slower',
    run: async (s) => {
      const id = idOf(await s.submit({ model: 'video-pro-v1', prompt: 'a kite [mock:stuck]' }));
      await s.poll(id, { wait: () => 20_000, attempts: 20 });
    },
  },
  'content-after-completion': {
    does: 'downloads the content after a fixed wait, never told the task completed',
    run: async (s) => {
      const id = idOf(await s.submit());
      await s.wire.advance(10 * 60_000);
      await s.download(id);
    },
  },
  'keep-task-id': {
    does: 'queries its task by an ID it mangled (cut short)',
    run: async (s) => {
      const id = idOf(await s.submit());
      await s.wire.advance(5_000);
      await s.wire.call('GET', `/v1/videos/${id.slice(0, -2)}`);
      await s.poll(id);
      await s.download(id);
    },
  },
  'json-body': {
    does: 'sends a submission labelled JSON that is not JSON',
    run: async (s) => {
      await s.submit(KITE, {
        raw: "{model: 'video-pro-v1', prompt: 'a red kite'}",
        headers: { 'content-type': 'application/json' },
      });
      await s.job();
    },
  },
  'required-fields': {
    does: 'sends a JSON submission without its prompt',
    run: async (s) => {
      await s.submit({ model: 'video-pro-v1' });
      await s.job();
    },
  },
  'poll-ceiling': {
    does: 'polls a running task every 90 s',
    run: async (s) => {
      const id = idOf(await s.submit({ model: 'video-pro-v1', prompt: 'a kite [mock:stuck]' }));
      await s.poll(id, { wait: () => 90_000, attempts: 3 });
    },
  },
  'second-family-readable-references': {
    does: 'passes the second family a reference image on localhost',
    options: { familyBound: true },
    key: 'sk-mock-vip',
    run: async (s) => {
      await s.job(withReference('http://127.0.0.1:8080/kite.png'));
    },
  },
  'second-family-no-preview-references': {
    does: 'passes the second family a presigned preview URL',
    options: { familyBound: true },
    key: 'sk-mock-vip',
    run: async (s) => {
      const signed =
        'https://bucket.s3.amazonaws.com/kite.png?X-Amz-Algorithm=AWS4-HMAC-SHA256' +
        '&X-Amz-Expires=300&X-Amz-Signature=abc123';
      await s.job(withReference(signed));
    },
  },
  'multipart-submission': {
    does: 'submits as multipart/form-data (what the openai SDK sends)',
    options: { profile: 'observed' },
    run: async (s) => {
      const raw = form({ model: 'video-pro-v1', prompt: 'a red kite', seconds: '8' });
      const id = idOf(await s.submit(KITE, { raw, headers: FORM_TYPE, path: '/v1/videos' }));
      await s.poll(id);
      await s.download(id);
    },
  },
};

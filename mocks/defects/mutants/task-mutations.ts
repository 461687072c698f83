import type { CoreRequest, CoreResponse } from '../../core/http/http-types.ts';
import type { DefectContext } from '../defect.ts';
import { jsonOf, withJson, without, wrapperData } from '../support.ts';
import type { Mutation } from './mutation.ts';

/** Mutations of successful answers: the task object (§2.2), the wrapper (§2.3), the catalog. */

type Body = Record<string, unknown>;

/** Rewrites a successful JSON answer. */
export function rewrite(
  does: string,
  change: (body: Body, context: DefectContext) => Body,
): Mutation {
  return {
    does,
    after(_request, response, context) {
      const body = jsonOf(response);
      if (response.status >= 300 || body === undefined) return response;
      return withJson(response, change(body, context));
    },
  };
}

/** Rewrites the wrapper's `data`. */
export const rewriteData = (does: string, change: (data: Body, context: DefectContext) => Body) =>
  rewrite(does, (body, context) => ({ ...body, data: change(wrapperData(body), context) }));

export const set = (field: string, value: unknown): Mutation =>
  rewrite(`answers ${field}: ${JSON.stringify(value)}`, (body) => ({ ...body, [field]: value }));

export const drop = (field: string): Mutation =>
  rewrite(`leaves out ${field}`, (body) => without(body, field));

const relativeAddress = (body: Body) => `videos/${String(body['id'] ?? body['task_id'])}.mp4`;

/** `metadata.url` holds a path, not an address. */
export const relativeUrl = rewrite('gives metadata.url as a relative path', (body) => ({
  ...body,
  metadata: { ...(body['metadata'] as Body | undefined), url: relativeAddress(body) },
}));

/** A completed task's `metadata.url` empty: present, but no address (§2.2, §4.2). */
export const emptyUrl = rewrite('gives a completed task an empty metadata.url', (body) => ({
  ...body,
  metadata: { ...(body['metadata'] as Body | undefined), url: '' },
}));

/** A completed task's `data.result_url` empty (§2.3). */
export const emptyResultUrl = rewriteData(
  'gives a completed task an empty data.result_url',
  (d) => ({
    ...d,
    result_url: '',
  }),
);

/** `data.result_url` holds the failure reason on a failed task (the gateway's fallback), a path otherwise. */
export const resultNotAddress = rewriteData(
  'gives data.result_url as a path, or the failure reason once failed',
  (data, { task }) => ({
    ...data,
    result_url: task?.snap.status === 'failed' ? data['fail_reason'] : relativeAddress(data),
  }),
);

/** The wrapper status that disagrees with each OpenAI state (read just before it). */
const DISAGREEING: Readonly<Record<string, string>> = {
  unknown: 'PENDING',
  queued: 'NOT_START',
  in_progress: 'QUEUED',
  completed: 'IN_PROGRESS',
  failed: 'IN_PROGRESS',
};

export const staleWrapper = rewriteData(
  'shows a wrapper status behind the OpenAI form',
  (data, { task }) => ({
    ...data,
    status: DISAGREEING[task?.snap.status ?? 'queued'],
  }),
);

/**
 * A mutation of every read of one task in the cell's state after the first: the first read is left
 * alone (or changed by `first`), later ones changed by `later`. The rules of sequences break only
 * across reads.
 */
export function laterReads(
  does: string,
  later: (body: Body, first: Body) => Body,
  first: (body: Body) => Body = (body) => body,
): Mutation {
  const firstRead = new Map<string, Body>();
  return {
    does,
    after(_request: CoreRequest, response: CoreResponse, { taskId = '' }: DefectContext) {
      const body = jsonOf(response);
      if (response.status !== 200 || body === undefined) return response;
      const seen = firstRead.get(taskId);
      if (seen === undefined) {
        const shown = first(body);
        firstRead.set(taskId, shown);
        return withJson(response, shown);
      }
      return withJson(response, later(body, seen));
    },
  };
}

const progressOf = (body: Body) => (typeof body['progress'] === 'number' ? body['progress'] : 0);

/** Progress falls by 5 after the first read in the state (raised to at least 5 on that first read). */
export const progressFalls = (): Mutation =>
  laterReads(
    'shows progress falling by 5 after the first read',
    (body, first) => ({ ...body, progress: progressOf(first) - 5 }),
    (body) => ({ ...body, progress: Math.max(5, progressOf(body)) }),
  );

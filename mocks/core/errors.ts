import { REQUEST_ERRORS } from './error-templates-request.ts';
import { SUBMISSION_ERRORS } from './error-templates-submission.ts';
import { TASK_ERRORS } from './error-templates-task.ts';
import { jsonResponse, type CoreResponse } from './http-types.ts';

/**
 * Every error the mock sends, as templates (one row per kind). Two envelopes, as on the deployed
 * gateway (both assumptions in the spec, `ErrorBody`): the OpenAI style from authentication, routing and
 * the content endpoint, and the task-wrapper style from the task handlers; plus the upstream's own
 * `{error: {code, message}}` on the second family's native path (`PluginErrorBody`).
 */
type Envelope = 'openai' | 'task' | 'plugin';

export interface ErrorTemplate {
  readonly status: number;
  readonly envelope: Envelope;
  /** OpenAI envelope only. */
  readonly type?: string;
  readonly code: string;
  readonly message: (detail: ErrorDetail) => string;
}

export interface ErrorDetail {
  readonly model?: string | undefined;
  readonly group?: string | undefined;
  readonly status?: string | undefined;
  readonly problem?: string | undefined;
  readonly method?: string | undefined;
  readonly path?: string | undefined;
  readonly contentType?: string | undefined;
  readonly limit?: number | undefined;
  readonly range?: string | undefined;
  readonly size?: number | undefined;
  readonly taskId?: string | undefined;
  readonly upstream?: string | undefined;
  /** Overrides the template's status (an upstream refusal carries the upstream's status). */
  readonly httpStatus?: number | undefined;
}

/** The table, one row per kind, in three parts: the request, the submission, the task. */
export const ERROR_TEMPLATES = {
  ...REQUEST_ERRORS,
  ...SUBMISSION_ERRORS,
  ...TASK_ERRORS,
} as const satisfies Record<string, ErrorTemplate>;

export type ErrorKind = keyof typeof ERROR_TEMPLATES;

/** The error body of a kind (without the HTTP wrapping). */
export function errorBody(
  kind: ErrorKind,
  detail: ErrorDetail = {},
): { status: number; body: Record<string, unknown> } {
  const template: ErrorTemplate = ERROR_TEMPLATES[kind];
  const message = template.message(detail);
  const body =
    template.envelope === 'openai'
      ? { error: { message, type: template.type ?? 'invalid_request_error', code: template.code } }
      : template.envelope === 'plugin'
        ? { error: { code: template.code, message } }
        : { code: template.code, message, data: null };
  return { status: detail.httpStatus ?? template.status, body };
}

export function errorResponse(
  kind: ErrorKind,
  detail: ErrorDetail = {},
  headers: Record<string, string> = {},
): CoreResponse {
  const { status, body } = errorBody(kind, detail);
  return jsonResponse(status, body, headers);
}

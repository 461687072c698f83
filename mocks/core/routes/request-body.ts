import { MAX_JSON_DEPTH, nestsTooDeep } from '../../../src/text/json-depth.ts';
import type { ErrorDetail, ErrorKind } from '../http/errors.ts';
import type { RouteContext, ServiceState } from '../service/service-state.ts';

/** What reading a submission's body reads of the service: its bounds, the profile's habits, the spec. */
export type BodyState = Pick<ServiceState, 'profile' | 'settings' | 'validators'>;
import { formSubmission } from './submit-form.ts';

/** Why a request is refused: an error kind of the mock's table, with its detail. */
export type Refusal = {
  readonly kind: ErrorKind;
  readonly detail?: ErrorDetail;
  readonly headers?: Record<string, string>;
};

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * A submission's body: JSON (§4.1, §5), or `multipart/form-data` read as the gateway reads it where the
 * profile accepts it (`observed`; the spec's `SubmitForm`); or why it is refused (415, 413, 400).
 */
export function parseSubmissionBody(
  context: RouteContext<BodyState>,
): { value: Record<string, unknown> } | Refusal {
  const { request, state } = context;
  const contentType = request.headers['content-type'] ?? '';
  if (mediaTypeOf(contentType) !== 'multipart/form-data' || !state.profile.multipartSubmissions)
    return parseJsonBody(context);
  const bytes = boundedBody(context);
  if ('kind' in bytes) return bytes;
  const form = state.validators.document.components?.schemas?.['SubmitForm'] ?? {};
  const read = formSubmission(bytes.bytes, contentType, form);
  return 'problem' in read
    ? { kind: 'invalid_form_data', detail: { problem: read.problem } }
    : read;
}

/** The JSON object body of a POST, or why it is refused (415, 413, 400). */
export function parseJsonBody(
  context: RouteContext<BodyState>,
): { value: Record<string, unknown> } | Refusal {
  const contentType = context.request.headers['content-type'] ?? '';
  if (mediaTypeOf(contentType) !== 'application/json')
    return { kind: 'unsupported_media_type', detail: { contentType } };
  const body = boundedBody(context);
  if ('kind' in body) return body;
  const { bytes } = body;
  // One depth limit for the whole project: nothing after this walks a hostile depth (issue 33 item 1).
  // The document shows no bound on a body (§8: size bounds not shown); no field of §2.1 nests past 3.
  if (nestsTooDeep(bytes))
    return {
      kind: 'invalid_request',
      detail: { problem: `the JSON body nests deeper than ${MAX_JSON_DEPTH} levels` },
    };
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(bytes));
  } catch (error) {
    const problem = error instanceof SyntaxError ? error.message : 'the body is not UTF-8 text';
    return {
      kind: 'invalid_json',
      detail: { problem: bytes.byteLength === 0 ? 'the body is empty' : problem },
    };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return {
      kind: 'invalid_request',
      detail: { problem: 'the body must be a JSON object (§2.1)' },
    };
  return { value: value as Record<string, unknown> };
}

function mediaTypeOf(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
}

/** The body's bytes, or 413 past the size limit (the host stopped reading, or it is simply too long). */
function boundedBody({ request, state }: RouteContext<BodyState>): { bytes: Uint8Array } | Refusal {
  const bytes = request.body ?? new Uint8Array();
  if (request.bodyTooLarge === true || bytes.byteLength > state.settings.maxBodyBytes)
    return { kind: 'body_too_large', detail: { limit: state.settings.maxBodyBytes } };
  return { bytes };
}

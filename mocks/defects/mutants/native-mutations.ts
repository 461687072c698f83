import type { CoreRequest } from '../../core/http/http-types.ts';
import type { Mutation } from './mutation.ts';
import { rewrite, set } from './task-mutations.ts';
import { requestObject } from '../support.ts';

/** Mutations of the second family's native path (§4.5): mixed formats, the upstream's shapes and statuses. */

const encoder = new TextEncoder();
/** The OpenAI form's own fields (§2.1) that `NativeFormatOnly` forbids on the native path. */
const OPENAI_FIELDS = ['prompt', 'image', 'images', 'seconds', 'size', 'metadata'];

/** The request with the OpenAI form's fields taken out of its JSON body (left alone if not JSON). */
export function nativeOnly(request: CoreRequest): CoreRequest {
  const body = requestObject(request);
  if (body === undefined) return request;
  const kept = Object.fromEntries(
    Object.entries(body).filter(([key]) => !OPENAI_FIELDS.includes(key)),
  );
  return { ...request, body: encoder.encode(JSON.stringify(kept)) };
}

/** A mixed body accepted: the native fields read, the OpenAI form's ignored, a task created. */
export const acceptMixed: Mutation = {
  does: "accepts a native body mixed with the OpenAI form's fields, ignoring them",
  before: (request) => nativeOnly(request),
};

/** The native submission answer wrapped in `data`: no `id` at the top. */
export const wrappedSubmission = rewrite('wraps the native submission answer in data', (body) => ({
  data: body,
}));

/** The native task without its `model`. */
export const taskWithoutModel = rewrite('leaves model out of the native task', (body) => {
  const { model: _model, ...rest } = body;
  return rest;
});

/**
 * A native status the mapping does not tie to the state the OpenAI form shows: one behind it, or,
 * where every state may follow (unknown, queued), an OpenAI-form value that is no native value.
 */
const WRONG_STATUS: Readonly<Record<string, string>> = {
  unknown: 'in_progress',
  queued: 'in_progress',
  in_progress: 'queued',
  completed: 'running',
  failed: 'running',
};

export const wrongNativeStatus = (state: string): Mutation => set('status', WRONG_STATUS[state]);

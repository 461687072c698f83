import type { Situation } from './profile-format.ts';

/**
 * What a submission sends wrong in §2.1's required fields (`model` and `prompt`, strings; the prompt
 * not empty or blank, §7), read from its body: how the learner names the contract suite's probes and how
 * the replay finds the learned answer for a refusal of the same kind (decisions/018). One defect per
 * probe, read in the gateway's order (the model first); undefined when both fields are well formed.
 */
export function fieldSituation(body: unknown): Situation | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const { model, prompt } = body as Record<string, unknown>;
  if (model === undefined || model === null || model === '') return 'missing-model';
  if (typeof model !== 'string') return 'model-not-string';
  if (prompt === undefined || prompt === null) return 'missing-prompt';
  if (typeof prompt !== 'string') return 'prompt-not-string';
  return prompt.trim() === '' ? 'empty-prompt' : undefined;
}

/** A part's headers naming a file (RFC 7578 §4.2: `filename`): the part uploads one. */
const FILE_PART = /^content-disposition:[^\r\n]*;\s*filename\*?=/im;

/**
 * Whether a submission uploads a file: a `multipart/form-data` body with a part naming a file name
 * (what the openai SDK's `videos.create` sends as `input_reference`; §2.1: not accepted).
 */
export function uploadsFile(contentType: string | undefined, body: string): boolean {
  return /^multipart\/form-data/i.test(contentType?.trim() ?? '') && FILE_PART.test(body);
}

import type { LearnedAnswer } from '../../../src/profile/index.ts';
import type { CoreResponse } from '../http/http-types.ts';
import { compileNode, type CompileOptions, type Render, type RenderFacts } from './render-node.ts';

/** The core's headers a learned answer keeps whatever it learned: they carry the core's decisions. */
const ALWAYS_KEPT = ['location', 'content-range', 'content-length'] as const;

/** Headers whose value the core decides (a wait, the methods allowed, the bytes' tag). */
const SEMANTIC_HEADERS = new Set(['retry-after', 'allow', 'etag', 'last-modified']);

/** A learned answer compiled once, at load. */
export interface CompiledAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly headers: readonly { readonly name: string; readonly render: Render }[];
  readonly body: Render | 'binary' | 'none';
}

/**
 * Compiles a learned answer: its status, content type, the headers that matter (the request ID's is
 * the service's to stamp, so it is left out here) and its body's shape.
 */
export function compileAnswer(
  answer: LearnedAnswer,
  options: CompileOptions,
  serviceRequestIdHeader: string | undefined,
): CompiledAnswer {
  const headers = Object.entries(answer.headers)
    .filter(([name]) => name !== serviceRequestIdHeader)
    .map(([name, node]) => {
      // A header's wording is the deployment's; only values that vary per answer come from the core.
      const worded = 'const' in node || ('kind' in node && /^(text|word)$/.test(node.kind));
      const bound = SEMANTIC_HEADERS.has(name) || !worded;
      return { name, render: compileNode(node, { ...options, bound }) };
    });
  const { body } = answer;
  return {
    status: answer.status,
    contentType: answer.contentType,
    headers,
    body: 'binary' in body ? 'binary' : 'none' in body ? 'none' : compileNode(body, options),
  };
}

/**
 * The core's answer as the deployment reads it: the learned status, content type and headers, the
 * body rendered from the learned shape with the core's answer as the source (`source`: its JSON).
 */
export function renderAnswer(
  compiled: CompiledAnswer,
  core: CoreResponse,
  source: unknown,
  facts: RenderFacts,
): CoreResponse {
  const headers: Record<string, string> = {};
  if (compiled.contentType !== '') headers['content-type'] = compiled.contentType;
  for (const { name, render } of compiled.headers) {
    const raw = core.headers[name];
    const source = raw !== undefined && /^-?\d{1,15}$/.test(raw) ? Number(raw) : raw;
    const value = render(source, facts, `header:${name}`);
    headers[name] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  // The core's length stands for bytes it sends (or a HEAD announces), never for a body rendered here.
  const bytes =
    compiled.body !== 'none'
      ? compiled.body === 'binary' && typeof core.body !== 'string'
      : compiled.status < 300 && core.body === undefined;
  for (const name of ALWAYS_KEPT) {
    const value = core.headers[name];
    if (value !== undefined && (name !== 'content-length' || bytes)) headers[name] = value;
  }
  if (compiled.body === 'none') return { status: compiled.status, headers };
  if (compiled.body === 'binary') return { status: compiled.status, headers, body: core.body };
  // `<` as `\u003c` (the same JSON): no text of a profile reads as markup if a browser sniffs it.
  const body = JSON.stringify(compiled.body(source, facts, '')).replace(/</g, '\\u003c');
  return { status: compiled.status, headers, body };
}

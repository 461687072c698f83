import { matchMediaType, type SpecValidators } from './validators.ts';

/** An HTTP answer as a conformance check reads it. */
export interface ObservedResponse {
  /** The request's method; a `HEAD` is judged by its own operation or, when none is declared, its `GET`'s statuses. */
  readonly method?: string | undefined;
  readonly status: number;
  /** The `Content-Type` header ('' when absent). */
  readonly contentType: string;
  /** Parsed JSON for a JSON media type, the raw bytes or text otherwise; `undefined` when there is no body. */
  readonly body: unknown;
  /** Lower-cased response headers; when given, every declared header present is checked against its schema. */
  readonly headers?: Readonly<Record<string, string | undefined>> | undefined;
}

/**
 * Every way an answer departs from what the spec declares for the operation: a status code the
 * operation does not declare (exact code, then its class `4XX`, then `default`), a body of a media type
 * the declared response does not list (or a body where it declares none, or any body on `HEAD`), a JSON
 * body that fails its schema in either reading, a declared header whose value fails its schema.
 * Empty when the answer conforms.
 *
 * @example
 * responseProblems(validators, 'createVideo', { status: 418, contentType: 'text/plain', body: 'x' });
 * // ['createVideo answered 418, which the spec does not declare (it declares 200, 400, …)']
 */
export function responseProblems(
  validators: SpecValidators,
  operationId: string,
  response: ObservedResponse,
): string[] {
  const head = response.method?.toUpperCase() === 'HEAD';
  const judged = head ? headOperation(validators, operationId) : operationId;
  const where = `${judged} ${response.status}`;
  const declared = validators.response(judged, response.status);
  if (declared === undefined) {
    const statuses = Object.keys(validators.operation(judged).operation.responses).join(', ');
    return [
      `${judged} answered ${response.status}, which the spec does not declare (it declares ${statuses})`,
    ];
  }
  const problems = headerProblems(validators, declared.response.headers, response.headers, where);
  if (response.body === undefined) return problems;
  if (head) return [...problems, `${where}: a HEAD answer carries a body`];
  const content = declared.response.content;
  const listed = content === undefined ? 'no body' : Object.keys(content).join(', ');
  const media = matchMediaType(content, response.contentType);
  if (media === undefined)
    return [
      ...problems,
      `${where}: content type "${response.contentType}" is not declared (it declares ${listed})`,
    ];
  const schema = declared.body(response.contentType);
  if (schema === undefined || !isJson(response.contentType)) return problems;
  const documented = schema.validate(response.body).errors;
  const full = schema.validateFull(response.body).errors;
  return [
    ...problems,
    ...documented.map((e) => `${where} documented rules: ${e}`),
    ...full.filter((e) => !documented.includes(e)).map((e) => `${where} assumptions: ${e}`),
  ];
}

/** `HEAD` on a path: its own operation when the spec declares one, else the `GET` it mirrors (RFC 9110 §9.3.2). */
function headOperation(validators: SpecValidators, operationId: string): string {
  const get = validators.operation(operationId);
  const own = validators.document.paths[get.path]?.head?.operationId;
  return own ?? operationId;
}

function headerProblems(
  validators: SpecValidators,
  declared: Record<string, { readonly schema?: Record<string, unknown> }> | undefined,
  seen: ObservedResponse['headers'],
  where: string,
): string[] {
  if (declared === undefined || seen === undefined) return [];
  const problems: string[] = [];
  for (const [name, header] of Object.entries(declared)) {
    const value = seen[name.toLowerCase()];
    if (value === undefined || header.schema === undefined) continue;
    const errors = validators.schemaValidator(header.schema).validateFull(value).errors;
    problems.push(...errors.map((e) => `${where} header ${name}: ${e}`));
  }
  return problems;
}

function isJson(contentType: string): boolean {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || type.endsWith('+json');
}

import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import * as ajvFormats from 'ajv-formats';
import schema from '../../spec/learned-profile.schema.json' with { type: 'json' };
import { isServableContentType, servableHeaderProblem } from './answer-rules.ts';
import { IdFormError, parseForm } from './id-form.ts';
import {
  MAX_PROFILE_BYTES,
  PROFILE_VERSION,
  SITUATIONS,
  type LearnedProfile,
  type ShapeNode,
} from './profile-format.ts';

// ajv-formats is CommonJS (`exports.default = plugin`); under NodeNext the plugin sits at `.default`.
const addFormats = ajvFormats.default as unknown as (ajv: Ajv2020) => Ajv2020;

/** A profile that cannot be used: every problem names its field as a JSON pointer. */
export class ProfileError extends Error {
  override readonly name = 'ProfileError';
  constructor(
    readonly source: string,
    readonly problems: readonly string[],
  ) {
    super(
      `${source} is not a usable profile: ${problems.slice(0, 5).join('; ')}` +
        (problems.length > 5 ? `; and ${problems.length - 5} more` : ''),
    );
  }
}

let validate: ValidateFunction | undefined;

function validator(): ValidateFunction {
  if (validate !== undefined) return validate;
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  validate = ajv.compile(schema);
  return validate;
}

/** The JSON Schema of the format (spec/learned-profile.schema.json). */
export const PROFILE_SCHEMA: object = schema;

/**
 * How deep a profile may nest, counting every object and list. A learned body's shape is described to
 * `MAX_JSON_DEPTH` levels (src/profile/shape.ts), each taking at most four of the profile's (a field's
 * object, its node, a `oneOf` and its node) under the five above the body: 300 leaves room and keeps
 * every walk of a profile (the schema's validator, the checks below, the mock's compilation) far from
 * the stack's end (issue 33 item 12: 3,000 levels overflowed the stack, naming no field).
 */
export const MAX_PROFILE_DEPTH = 300;

/**
 * A profile from parsed JSON (or its text), checked against the schema and for what a schema cannot
 * say (ID forms that read one way, ranges in order, answers the service could send). Throws
 * `ProfileError` naming each bad field by its JSON pointer (`/answers/getVideo queued owner/ok/status:
 * must be integer`); never returns a half-read one. Bounded work whatever the input: its nesting is
 * checked first, without recursion, and the schema bounds every list, text and number the mock uses.
 */
export function readProfile(input: unknown, source = 'the profile'): LearnedProfile {
  let value = input;
  if (typeof input === 'string') {
    if (input.length > MAX_PROFILE_BYTES)
      throw new ProfileError(source, [
        `it is ${input.length} characters long, more than a profile may be (${MAX_PROFILE_BYTES} bytes)`,
      ]);
    try {
      value = JSON.parse(input);
    } catch (error) {
      throw new ProfileError(source, [`it is not JSON (${(error as Error).message})`]);
    }
  }
  const deep = tooDeepAt(value);
  if (deep !== undefined)
    throw new ProfileError(source, [
      `${deep}: nests deeper than ${MAX_PROFILE_DEPTH} levels (a learned profile nests a few dozen)`,
    ]);
  const version = (value as { version?: unknown } | null)?.version;
  if (value !== null && typeof value === 'object' && version !== PROFILE_VERSION)
    throw new ProfileError(source, [
      `/version: is ${JSON.stringify(version)}, this videotask reads version ${PROFILE_VERSION} ` +
        '(learn it again with this version: videotask learn …)',
    ]);
  const check = validator();
  if (!check(value)) throw new ProfileError(source, schemaProblems(check.errors ?? []));
  const profile = value as LearnedProfile;
  const problems = semanticProblems(profile);
  if (problems.length > 0) throw new ProfileError(source, problems);
  return profile;
}

/** The errors a person can act on: the deepest, one per field, without the schema's own plumbing. */
function schemaProblems(errors: readonly ErrorObject[]): string[] {
  const plumbing = new Set(['if', 'anyOf', 'oneOf', 'allOf', '$ref']);
  const real = errors.filter((e) => !plumbing.has(e.keyword));
  const chosen = real.length > 0 ? real : errors;
  const byPointer = new Map<string, string>();
  // A name that is wrong says more than what its value lacks; then the deepest first.
  const order = (e: ErrorObject) => (e.propertyName === undefined ? 0 : 1000) + depth(e);
  for (const error of [...chosen].sort((a, b) => order(b) - order(a))) {
    const { pointer, message } = describeError(error);
    if (!byPointer.has(pointer)) byPointer.set(pointer, message);
  }
  return [...byPointer].map(([pointer, message]) => `${pointer || '/'}: ${message}`);
}

const depth = (e: ErrorObject) => e.instancePath.split('/').length;

interface Visit {
  readonly value: unknown;
  readonly depth: number;
  readonly key: string;
  readonly parent: Visit | undefined;
}

/**
 * The JSON pointer of the first place `value` nests deeper than `MAX_PROFILE_DEPTH` (its first
 * dozen steps, then `…`), or undefined; a walk with its own stack, so any depth is measured.
 */
function tooDeepAt(value: unknown): string | undefined {
  const stack: Visit[] = [{ value, depth: 1, key: '', parent: undefined }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    if (visit.value === null || typeof visit.value !== 'object') continue;
    if (visit.depth > MAX_PROFILE_DEPTH) return pointerOf(visit);
    for (const [key, child] of Object.entries(visit.value))
      if (child !== null && typeof child === 'object')
        stack.push({ value: child, depth: visit.depth + 1, key, parent: visit });
  }
  return undefined;
}

function pointerOf(visit: Visit): string {
  const keys: string[] = [];
  for (let at: Visit | undefined = visit; at?.parent !== undefined; at = at.parent)
    keys.push(at.key);
  keys.reverse();
  const shown = keys.slice(0, 12).map((key) => `/${escapePointer(key.slice(0, 60))}`);
  return shown.join('') + (keys.length > 12 ? '/…' : '');
}
const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

function describeError(error: ErrorObject): { pointer: string; message: string } {
  const params = error.params as Record<string, unknown>;
  const at = error.instancePath;
  if (error.propertyName !== undefined) return nameError(at, error.propertyName);
  switch (error.keyword) {
    case 'additionalProperties':
      return {
        pointer: `${at}/${escapePointer(String(params['additionalProperty']))}`,
        message: 'is not a field of the format (a typo?)',
      };
    case 'required':
      return { pointer: at, message: `lacks the field "${String(params['missingProperty'])}"` };
    case 'propertyNames':
      return nameError(at, String(params['propertyName']));
    case 'enum':
      return {
        pointer: at,
        message: `must be one of ${(params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
      };
    case 'const':
      return { pointer: at, message: `must be ${JSON.stringify(params['allowedValue'])}` };
    case 'pattern':
      return at === '/name'
        ? { pointer: at, message: 'must be printable text (no control characters)' }
        : { pointer: at, message: error.message ?? error.keyword };
    default:
      return { pointer: at, message: error.message ?? error.keyword };
  }
}

/** A field whose name the format does not take: a cell, a situation, a header. */
function nameError(at: string, name: string): { pointer: string; message: string } {
  const message = at.startsWith('/answers/')
    ? `is not a situation (${SITUATIONS.join(', ')})`
    : at === '/answers'
      ? 'names no cell: write "<operationId> <state> <caller>", e.g. "getVideo queued owner"'
      : 'is not a name this field takes';
  return { pointer: `${at}/${escapePointer(name)}`, message };
}

/** What the schema cannot say: ID forms parse, ranges are in order. */
function semanticProblems(profile: LearnedProfile): string[] {
  const problems: string[] = [];
  const form = (pointer: string, text: string) => {
    try {
      parseForm(text);
    } catch (error) {
      if (!(error instanceof IdFormError)) throw error;
      problems.push(`${pointer}: ${error.message}`);
    }
  };
  const range = (pointer: string, r: readonly [number, number] | undefined) => {
    if (r !== undefined && r[0] > r[1])
      problems.push(`${pointer}: the range starts above its end ([${r[0]}, ${r[1]}])`);
  };
  form('/taskId/form', profile.taskId.form);
  if (profile.content !== null && !isServableContentType(profile.content.contentType))
    problems.push(`/content/contentType: ${NOT_SERVABLE_TYPE}`);
  if (profile.requestId !== null) form('/requestId/form', profile.requestId.form);
  for (const [phase, r] of Object.entries(profile.lifecycle.phases) as [
    string,
    readonly [number, number],
  ][])
    range(`/lifecycle/phases/${phase}`, r);
  for (const [cell, situations] of Object.entries(profile.answers))
    for (const [situation, answer] of Object.entries(situations)) {
      if (answer === undefined) continue;
      const at = `/answers/${escapePointer(cell)}/${situation}`;
      range(`${at}/ms`, answer.ms);
      const sendable = (pointer: string, texts: readonly string[]) => {
        if (texts.some((text) => UNSENDABLE.test(text)))
          problems.push(
            `${pointer}: a header value must be Latin-1 text without control characters`,
          );
      };
      // The content type is sent as a header too.
      sendable(`${at}/contentType`, [answer.contentType]);
      if (!isServableContentType(answer.contentType))
        problems.push(`${at}/contentType: ${NOT_SERVABLE_TYPE}`);
      for (const [name, node] of Object.entries(answer.headers)) {
        const pointer = `${at}/headers/${escapePointer(name)}`;
        const refused = servableHeaderProblem(name, node);
        if (refused !== undefined) problems.push(`${pointer}: ${refused}`);
        walk(node, pointer, form, range);
        sendable(pointer, textsOf(node));
      }
      if (!('binary' in answer.body) && !('none' in answer.body))
        walk(answer.body, `${at}/body`, form, range);
    }
  return problems;
}

const NOT_SERVABLE_TYPE =
  "is not a type of the service's answers: give application/json, text/plain, video/… or " +
  'application/octet-stream (learn sends any other text as text/plain)';

/** What no HTTP server can send in a header value (RFC 9110 §5.5: field-content, as node checks it). */
const UNSENDABLE = /[^\t\x20-\x7e\x80-\xff]/;

/**
 * Every text a node holds: constants, templates, words; an object's names and a list's items too (a
 * header learned as JSON is sent as its JSON).
 */
function textsOf(node: ShapeNode): string[] {
  if ('const' in node) return typeof node.const === 'string' ? [node.const] : [];
  if ('oneOf' in node) return node.oneOf.flatMap(textsOf);
  if ('object' in node)
    return Object.entries(node.object).flatMap(([key, child]) => [key, ...textsOf(child)]);
  if ('array' in node) return node.array === null ? [] : textsOf(node.array);
  if ('kind' in node)
    return [...(node.template === undefined ? [] : [node.template]), ...(node.values ?? [])];
  return [];
}

function walk(
  node: ShapeNode,
  pointer: string,
  form: (pointer: string, text: string) => void,
  range: (pointer: string, r: readonly [number, number] | undefined) => void,
): void {
  if ('object' in node) {
    for (const [key, child] of Object.entries(node.object))
      walk(child, `${pointer}/object/${escapePointer(key)}`, form, range);
  } else if ('array' in node) {
    range(`${pointer}/length`, node.length);
    if (node.array !== null) walk(node.array, `${pointer}/array`, form, range);
  } else if ('oneOf' in node) {
    node.oneOf.forEach((child, i) => walk(child, `${pointer}/oneOf/${i}`, form, range));
  } else if ('kind' in node) {
    if (node.form !== undefined) form(`${pointer}/form`, node.form);
    range(`${pointer}/range`, node.range);
  }
}

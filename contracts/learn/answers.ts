import {
  boundShape,
  cellKey,
  isServableHeader,
  servableContentType,
  describe,
  formOf,
  isIdLike,
  mergeForms,
  mergeNodes,
  parseForm,
  type BodyNode,
  type LearnedAnswer,
  type ShapeNode,
  type Situation,
  type ValueFacts,
} from '../../src/profile/index.ts';
import type { Exchange } from '../http-recorder.ts';
import type { Observation } from './run-observer.ts';

/**
 * Headers that matter to a client, learned per answer: those the mock may send from a profile
 * (`isServableHeader`: caching, ranges and redirects, refusals' companions, rate limits, the request ID
 * and the deployment's other `x-` headers), but a proxy's or a CDN's own and the browser protections
 * the mock sets on every answer itself (`nosniff`: learning them would make every deployment without
 * them drift). Transport, content encoding, cookies, CORS and security policy (the host's business,
 * not the service's) are left out.
 */
const LEFT_OUT = /^(x-powered-by|x-forwarded-.*|x-real-ip|x-amz-.*|x-cache.*|x-envoy-.*)$/;
const SET_BY_THE_MOCK = new Set(['x-content-type-options', 'x-frame-options', 'x-xss-protection']);

export function mattersHeader(name: string): boolean {
  return isServableHeader(name) && !LEFT_OUT.test(name) && !SET_BY_THE_MOCK.has(name);
}

/** The most headers an answer keeps (the profile's bound): the first seen. */
const MAX_HEADERS = 64;
/** The most status codes an answer lists (the profile's bound). */
const MAX_STATUSES = 16;

/** A request-ID header's name: the deployment's own request, trace or correlation ID. */
const REQUEST_ID_NAME = /(request|trace|correlation)[-_]?id$/;

/** A value's form, when it has one (a slot, not only literal text). */
export function safeForm(value: string): string | undefined {
  if (!/[0-9A-Za-z]{6,}/.test(value)) return undefined;
  const form = formOf(value);
  try {
    parseForm(form);
    return form;
  } catch {
    return undefined;
  }
}

/** The header that carries a service request ID on most answers, and the form of its values. */
export function serviceRequestIdHeaderOf(
  exchanges: readonly Exchange[],
): { header: string; form: string } | null {
  const counts = new Map<string, number>();
  for (const e of exchanges)
    for (const name of Object.keys(e.headers))
      if (REQUEST_ID_NAME.test(name)) counts.set(name, (counts.get(name) ?? 0) + 1);
  const [header, count] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? [];
  if (header === undefined || count! < exchanges.length / 2) return null;
  let form: string | undefined;
  for (const e of exchanges) {
    const value = e.headers[header];
    const seen = value === undefined ? undefined : safeForm(value);
    if (seen !== undefined) form = form === undefined ? seen : mergeForms(form, seen);
  }
  return form === undefined ? null : { header, form };
}

interface Accumulated {
  readonly statuses: Map<number, number>;
  readonly contentTypes: Map<string, number>;
  headers: Record<string, ShapeNode>;
  body: BodyNode | undefined;
  redirected: boolean;
  ms: [number, number];
  seen: number;
  readonly steps: Set<string>;
}

const MAX_STEPS = 8;

function bodyOf(exchange: Exchange, facts: ValueFacts): BodyNode {
  if (exchange.json !== undefined) return describe(exchange.json, facts);
  if (exchange.bytes > 0) return { binary: [exchange.bytes, exchange.bytes] };
  return { none: true };
}

function mergeBodies(a: BodyNode | undefined, b: BodyNode): BodyNode {
  if (a === undefined) return b;
  if ('binary' in a && 'binary' in b)
    return { binary: [Math.min(a.binary[0], b.binary[0]), Math.max(a.binary[1], b.binary[1])] };
  if ('none' in a || 'binary' in a || 'none' in b || 'binary' in b) return a;
  return mergeNodes(a, b);
}

function mostCommon<T>(counts: ReadonlyMap<T, number>): T {
  return [...counts].sort((a, b) => b[1] - a[1])[0]![0];
}

/**
 * Every observation of a cell and situation merged into one learned answer: the statuses, the content
 * type, the headers that matter and the body's shape, each value by its kind.
 */
export function learnAnswers(
  observations: readonly Observation[],
  factsOf: (observation: Observation) => ValueFacts,
  serviceRequestIdHeader: string | undefined,
): Record<string, Partial<Record<Situation, LearnedAnswer>>> {
  const cells = new Map<string, Map<Situation, Accumulated>>();
  for (const o of observations) {
    const key = cellKey(o.route, o.state, o.caller);
    const situations = cells.get(key) ?? new Map<Situation, Accumulated>();
    cells.set(key, situations);
    const into =
      situations.get(o.situation) ??
      ({
        statuses: new Map(),
        contentTypes: new Map(),
        headers: {},
        body: undefined,
        redirected: false,
        ms: [o.exchange.ms, o.exchange.ms],
        seen: 0,
        steps: new Set(),
      } satisfies Accumulated);
    situations.set(o.situation, into);
    accumulate(into, o, factsOf(o), serviceRequestIdHeader);
  }
  const answers: Record<string, Partial<Record<Situation, LearnedAnswer>>> = {};
  for (const key of [...cells.keys()].sort()) {
    const learned: Partial<Record<Situation, LearnedAnswer>> = {};
    for (const [situation, a] of [...cells.get(key)!].sort())
      learned[situation] = {
        status: mostCommon(a.statuses),
        ...(a.statuses.size > 1
          ? { statuses: [...a.statuses.keys()].sort().slice(0, MAX_STATUSES) }
          : {}),
        contentType: mostCommon(a.contentTypes),
        headers: a.headers,
        body: a.body!,
        ...(a.redirected ? { redirected: true } : {}),
        ms: [Math.floor(a.ms[0]), Math.ceil(a.ms[1])],
        seen: a.seen,
        steps: [...a.steps].slice(0, MAX_STEPS),
      };
    answers[key] = learned;
  }
  return answers;
}

function accumulate(
  into: Accumulated,
  o: Observation,
  facts: ValueFacts,
  serviceRequestIdHeader: string | undefined,
): void {
  const { exchange } = o;
  into.statuses.set(exchange.status, (into.statuses.get(exchange.status) ?? 0) + 1);
  // Learned as the service's answers can be: HTML naming the task is text (issue 33 item 3).
  const contentType = servableContentType(exchange.contentType);
  into.contentTypes.set(contentType, (into.contentTypes.get(contentType) ?? 0) + 1);
  for (const [name, value] of Object.entries(exchange.headers)) {
    if (!mattersHeader(name)) continue;
    if (into.headers[name] === undefined && Object.keys(into.headers).length >= MAX_HEADERS)
      continue;
    const node: ShapeNode =
      name === serviceRequestIdHeader ? { kind: 'request-id' } : headerNode(name, value, facts);
    const seen = into.headers[name];
    into.headers[name] = seen === undefined ? node : mergeNodes(seen, node);
  }
  // Bounded as it grows: a deployment whose every answer names new fields adds none past the bound.
  const body = mergeBodies(into.body, bodyOf(exchange, facts));
  into.body = 'binary' in body || 'none' in body ? body : boundShape(body);
  into.redirected ||= exchange.redirected;
  into.ms = [Math.min(into.ms[0], exchange.ms), Math.max(into.ms[1], exchange.ms)];
  into.seen++;
  into.steps.add(exchange.label);
}

/** A header's value by kind; an ETag names the bytes it tags, so only its form is kept. */
function headerNode(name: string, value: string, facts: ValueFacts): ShapeNode {
  if (name === 'etag') return { kind: 'word' };
  // Where a redirect leads is the mock's to make: an address, never the deployment's.
  if (name === 'location') return { kind: 'url' };
  // A number in a header (a limit, a count, a time) is a number, not a word.
  if (/^-?\d{1,15}$/.test(value)) return describe(Number(value), facts);
  const node = describe(value, facts);
  if ('kind' in node && node.kind === 'text' && isIdLike(value.replace(/"/g, '')))
    return { kind: 'word' };
  return node;
}

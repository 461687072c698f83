/**
 * One request of the Prism review (scripts/prism-review.sh) and the builders its tables use.
 * `via` says where it goes: `strict` (Prism `--errors`, for requests the spec allows), `lenient` (Prism
 * without `--errors`, for deliberately invalid requests, which a strict Prism answers itself), `control`
 * (Prism `--errors` over mock-control.yaml) or `direct` (the mock itself: binary bodies and invalid
 * JSON, which Prism corrupts or hangs on; judged by our own check only).
 */
import { OPERATIONS, type OperationId } from '../src/generated/routes.ts';
import { fillTemplate } from '../src/spec/routes.ts';

export type Via = 'strict' | 'lenient' | 'control' | 'direct';
/** Task IDs (and temporary addresses) saved by earlier probes. */
export type Ids = Readonly<Record<string, string>>;
type Path = string | ((ids: Ids) => string);
/** An operation's path parameters, or how to read them from the saved IDs. */
type Params = Readonly<Record<string, string>> | ((ids: Ids) => Readonly<Record<string, string>>);

export interface Probe {
  readonly name: string;
  readonly via: Via;
  readonly operationId: OperationId;
  /** The operation's (src/generated/routes.ts: the spec's). */
  readonly method: string;
  readonly path: Path;
  /** The API key; `null` sends none. Default `sk-mock-alice` (none on control routes). */
  readonly key?: string | null;
  readonly headers?: Record<string, string>;
  /** A JSON body. */
  readonly body?: unknown;
  /** A raw body, sent with the content type in `headers`. */
  readonly raw?: string;
  readonly expect: number;
  /** Saves the answer's `id` (and, once completed, its `metadata.url` path as `<name>.url`). */
  readonly save?: string;
  /** Only against this profile of the mock. */
  readonly profile?: 'documented' | 'observed';
}

type More = Partial<Omit<Probe, 'name' | 'operationId' | 'expect' | 'method' | 'path'>> & {
  /** Path parameters besides the builder's (a plugin nobody declares). */
  readonly params?: Readonly<Record<string, string>>;
  /** A query string: `?owner=alice`. */
  readonly search?: string;
  /** A path the mock answered (a temporary address), in place of the operation's template. */
  readonly path?: (ids: Ids) => string;
};

export const VIP = 'sk-mock-vip';
export const MISSING = 'task_00000000000000000000000000000000';
export const KITE = { model: 'video-pro-v1', prompt: 'a red kite' };
export const BOAT = { model: 'alt-video-v2', content: [{ type: 'text', text: 'a paper boat' }] };
/** The task plugin of the second family, on the native path (§4.5). */
const PLUGIN = 'alt-video';

/** The probe of an operation: its method and path from the generated route table (decisions/030). */
function probe(
  base: { name: string; via: Via; operationId: OperationId; params: Params; expect: number },
  { params: extra, search = '', path, ...more }: More,
): Probe {
  const { name, via, operationId, params, expect } = base;
  const { method, template } = OPERATIONS[operationId];
  const filled = (ids: Ids) => {
    const own = typeof params === 'function' ? params(ids) : params;
    return `${fillTemplate(template, { plugin_name: PLUGIN, ...own, ...extra })}${search}`;
  };
  const at = path ?? (typeof params === 'function' ? filled : filled({}));
  return { name, via, operationId, method, path: at, expect, ...more };
}

/** A request without a body (GET, HEAD: the operation's method) through the strict Prism. */
export function query(
  name: string,
  operationId: OperationId,
  params: Params,
  expect: number,
  more: More = {},
): Probe {
  return probe({ name, via: 'strict', operationId, params, expect }, more);
}

/** A JSON submission to the operation's path through the strict Prism. */
export function submit(
  name: string,
  operationId: OperationId,
  body: unknown,
  expect: number,
  more: More = {},
): Probe {
  return probe({ name, via: 'strict', operationId, params: {}, expect }, { body, ...more });
}

/** A request of the control API or a temporary address, through the Prism over mock-control.yaml. */
export function control(
  name: string,
  operationId: OperationId,
  params: Params,
  expect: number,
  more: More = {},
): Probe {
  return probe({ name, via: 'control', operationId, params, expect }, { key: null, ...more });
}

export const scenario = (value: string) => ({ headers: { 'x-mock-scenario': value } });
/** The task an earlier probe saved as `name`, as path parameters. */
export const task = (name: string) => (ids: Ids) => ({ task_id: ids[name]! });
/** A task no deployment has issued. */
export const MISSING_TASK = { task_id: MISSING };

/** A multipart/form-data body with boundary `F` and its content type. */
export function form(fields: readonly (readonly [string, string])[]): More {
  const parts = fields.map(
    ([n, v]) => `--F\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`,
  );
  return {
    headers: { 'content-type': 'multipart/form-data; boundary=F' },
    raw: `${parts.join('')}--F--\r\n`,
  };
}

/**
 * One request of the Prism review (scripts/prism-review.sh) and the builders its tables use.
 * `via` says where it goes: `strict` (Prism `--errors`, for requests the spec allows), `lenient` (Prism
 * without `--errors`, for deliberately invalid requests, which a strict Prism answers itself), `control`
 * (Prism `--errors` over mock-control.yaml) or `direct` (the mock itself: binary bodies and invalid
 * JSON, which Prism corrupts or hangs on; judged by our own check only).
 */
export type Via = 'strict' | 'lenient' | 'control' | 'direct';
/** Task IDs (and temporary addresses) saved by earlier probes. */
export type Ids = Readonly<Record<string, string>>;
type Path = string | ((ids: Ids) => string);

export interface Probe {
  readonly name: string;
  readonly via: Via;
  readonly operationId: string;
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

type More = Partial<Omit<Probe, 'name' | 'operationId' | 'expect'>>;

export const VIP = 'sk-mock-vip';
export const MISSING = 'task_00000000000000000000000000000000';
export const KITE = { model: 'video-pro-v1', prompt: 'a red kite' };
export const BOAT = { model: 'alt-video-v2', content: [{ type: 'text', text: 'a paper boat' }] };
export const NATIVE = '/alt-video/api/v3/contents/generations/tasks';
const SUBMIT_PATHS: Record<string, string> = {
  createVideoGeneration: '/v1/video/generations',
  createVideo: '/v1/videos',
  createPluginTask: NATIVE,
};

/** A GET (or another method in `more`) through the strict Prism. */
export function query(
  name: string,
  operationId: string,
  path: Path,
  expect: number,
  more: More = {},
): Probe {
  return { name, via: 'strict', operationId, method: 'GET', path, expect, ...more };
}

/** A JSON submission to the operation's path through the strict Prism. */
export function submit(
  name: string,
  operationId: string,
  body: unknown,
  expect: number,
  more: More = {},
): Probe {
  return {
    name,
    via: 'strict',
    operationId,
    method: 'POST',
    path: SUBMIT_PATHS[operationId]!,
    body,
    expect,
    ...more,
  };
}

/**
 * A request of the control API or a temporary address, through the Prism over mock-control.yaml. The
 * request is `[method, path]`, as a route table row reads.
 */
export function control(
  name: string,
  operationId: string,
  [method, path]: readonly [string, Path],
  expect: number,
  more: More = {},
): Probe {
  return { name, via: 'control', operationId, method, path, expect, key: null, ...more };
}

export const scenario = (value: string) => ({ headers: { 'x-mock-scenario': value } });
export const video = (name: string) => (ids: Ids) => `/v1/videos/${ids[name]}`;
export const wrapper = (name: string) => (ids: Ids) => `/v1/video/generations/${ids[name]}`;
export const content = (name: string) => (ids: Ids) => `/v1/videos/${ids[name]}/content`;
export const native = (name: string) => (ids: Ids) => `${NATIVE}/${ids[name]}`;

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

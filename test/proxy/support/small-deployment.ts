// A small deployment of the video task service, written for the proxy's tests from the service
// document alone (none of the mock's code): what `videotask proxy` stands in front of when it is not
// our mock. Run as its own process: `node --import tsx small-deployment.ts [--base /api]`; prints
// `small deployment listening on URL` (URL with its base path). Tasks run queued → in_progress →
// completed in ~1.2 s (a prompt with "fail" fails). `GET /__count` (no key) says how many tasks were
// created: the test compares it with what its clients submitted.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const KEYS = new Set(['sk-small-alice-0123456789', 'sk-small-bob-0123456789ab']);
const MODELS = ['video-pro-v1', 'video-lite-v1'];
/** A video file's first bytes: an ISO BMFF `ftyp` box, then some payload. */
const BASE_VIDEO = Buffer.concat([
  Buffer.from([0, 0, 0, 0x18]),
  Buffer.from('ftypisom\0\0\x02\0isomiso2', 'latin1'),
  randomBytes(200_000),
]);
const WRAPPER = {
  queued: 'QUEUED',
  in_progress: 'IN_PROGRESS',
  completed: 'SUCCESS',
  failed: 'FAILURE',
};
type State = keyof typeof WRAPPER;

interface Task {
  readonly id: string;
  readonly owner: string;
  readonly model: string;
  readonly fails: boolean;
  /** Its video is 32 MiB (a prompt with "long"): what a proxy must stream, never hold. */
  readonly long: boolean;
  readonly createdMs: number;
}

const tasks = new Map<string, Task>();
const base = process.argv.includes('--base')
  ? process.argv[process.argv.indexOf('--base') + 1]!
  : '';

function stateOf(task: Task, now = Date.now()): { state: State; progress: number } {
  const age = now - task.createdMs;
  if (age < 300) return { state: 'queued', progress: 0 };
  if (age < 1200) return { state: 'in_progress', progress: Math.floor(((age - 300) / 900) * 99) };
  return task.fails ? { state: 'failed', progress: 100 } : { state: 'completed', progress: 100 };
}

const seconds = (ms: number) => Math.floor(ms / 1000);

function openAi(task: Task, origin: string): object {
  const { state, progress } = stateOf(task);
  const body: Record<string, unknown> = {
    id: task.id,
    task_id: task.id,
    object: 'video',
    model: task.model,
    status: state,
    progress,
    created_at: seconds(task.createdMs),
  };
  if (state === 'completed') {
    body['completed_at'] = seconds(task.createdMs + 1200);
    body['metadata'] = { url: `${origin}${base}/files/${task.id}.mp4` };
  }
  if (state === 'failed')
    body['error'] = { code: 'generation_failed', message: 'the prompt asked to fail' };
  return body;
}

function wrapper(task: Task, origin: string): object {
  const { state, progress } = stateOf(task);
  return {
    code: 'success',
    message: '',
    data: {
      task_id: task.id,
      platform: '54',
      status: WRAPPER[state],
      progress: `${progress}%`,
      fail_reason: state === 'failed' ? 'the prompt asked to fail' : '',
      created_at: seconds(task.createdMs),
      updated_at: seconds(Date.now()),
      ...(state === 'completed' ? { result_url: `${origin}${base}/files/${task.id}.mp4` } : {}),
    },
  };
}

function send(
  res: ServerResponse,
  status: number,
  body: object,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

const error = (res: ServerResponse, status: number, code: string, message: string) =>
  send(res, status, {
    error: { message, type: status === 401 ? 'new_api_error' : 'invalid_request_error', code },
  });

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    req
      .setEncoding('utf8')
      .on('data', (c: string) => (text += c))
      .on('end', () => resolve(text));
  });
}

async function submit(
  req: IncomingMessage,
  res: ServerResponse,
  key: string,
  origin: string,
): Promise<void> {
  let body: { model?: unknown; prompt?: unknown };
  try {
    body = JSON.parse(await readBody(req)) as typeof body;
  } catch {
    return error(res, 400, 'invalid_json', 'the body is not JSON');
  }
  if (typeof body.model !== 'string' || typeof body.prompt !== 'string')
    return error(res, 400, 'invalid_request', 'model and prompt are required strings');
  if (body.prompt.trim() === '') return error(res, 400, 'invalid_request', 'the prompt is empty');
  if (!MODELS.includes(body.model))
    return error(res, 403, 'model_not_allowed', 'this key may not use the model');
  const task: Task = {
    id: `task_${randomBytes(12).toString('hex')}`,
    owner: key,
    model: body.model,
    fails: body.prompt.includes('fail'),
    long: body.prompt.includes('long'),
    createdMs: Date.now(),
  };
  tasks.set(task.id, task);
  send(res, 200, openAi(task, origin));
}

let longVideo: Buffer | undefined;

function content(req: IncomingMessage, res: ServerResponse, task: Task): void {
  const { state } = stateOf(task);
  if (state !== 'completed') return error(res, 400, 'task_not_completed', `the task is ${state}`);
  const VIDEO = task.long
    ? (longVideo ??= Buffer.concat([BASE_VIDEO, Buffer.alloc(32 << 20)]))
    : BASE_VIDEO;
  const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
  const start = range === null ? 0 : Number(range[1]);
  const end =
    range === null || range[2] === ''
      ? VIDEO.length - 1
      : Math.min(Number(range[2]), VIDEO.length - 1);
  const part = VIDEO.subarray(start, end + 1);
  const headers: Record<string, string> = {
    'content-type': 'video/mp4',
    'content-length': String(part.length),
    'accept-ranges': 'bytes',
  };
  if (range !== null) headers['content-range'] = `bytes ${start}-${end}/${VIDEO.length}`;
  res.writeHead(range === null ? 200 : 206, headers);
  res.end(req.method === 'HEAD' ? undefined : part);
}

async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url!, 'http://x');
  const origin = `http://${req.headers.host}`;
  if (url.pathname === '/__count') return send(res, 200, { created: tasks.size });
  // An upstream that never answers, and one whose answer breaks off (the proxy must survive both).
  if (url.pathname === `${base}/__hang`) return;
  if (url.pathname === `${base}/__break`) {
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': '100000' });
    return void res.write(BASE_VIDEO.subarray(0, 1000), () => res.destroy());
  }
  // What arrived of the request: its fields and path (the proxy's hop-by-hop handling, its base path).
  if (url.pathname.startsWith(`${base}/__echo`))
    return send(
      res,
      200,
      { path: req.url, headers: req.rawHeaders },
      { connection: 'x-upstream-private', 'x-upstream-private': '1' },
    );
  if (!url.pathname.startsWith(`${base}/`)) return error(res, 404, 'not_found', 'no such path');
  const path = url.pathname.slice(base.length);
  const auth = req.headers.authorization ?? '';
  const key = auth.startsWith('Bearer ') ? auth.slice(7) : '';
  if (!KEYS.has(key)) return error(res, 401, 'invalid_api_key', 'a valid key is required');
  if (req.method === 'GET' && path === '/v1/models')
    return send(res, 200, {
      object: 'list',
      data: MODELS.map((id) => ({ id, object: 'model', created: 1700000000, owned_by: 'small' })),
    });
  if (req.method === 'POST' && (path === '/v1/videos' || path === '/v1/video/generations'))
    return submit(req, res, key, origin);
  const match = /^\/v1\/(videos|video\/generations)\/([^/]+)(\/content)?$/.exec(path);
  const task = match === null ? undefined : tasks.get(decodeURIComponent(match[2]!));
  if (match === null) return error(res, 404, 'not_found', 'no such path');
  if (task === undefined || task.owner !== key)
    return error(res, 404, 'task_not_exist', 'no such task');
  if (match[3] !== undefined && match[1] === 'videos') return content(req, res, task);
  if (match[1] === 'videos') return send(res, 200, openAi(task, origin));
  return send(res, 200, wrapper(task, origin));
}

const server = createServer((req, res) => void answer(req, res));
server.listen(
  Number(process.argv[process.argv.indexOf('--port') + 1] ?? 0) || 0,
  '127.0.0.1',
  () => {
    const { port } = server.address() as AddressInfo;
    console.log(`small deployment listening on http://127.0.0.1:${port}${base}`);
  },
);
process.on('SIGTERM', () => server.close(() => process.exit(0)));

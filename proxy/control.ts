import type { IncomingMessage, ServerResponse } from 'node:http';
import { controlRefusal } from '../mocks/core/keys/control-access.ts';
import type { CoreRequest } from '../mocks/core/http/http-types.ts';
import type { HostView } from '../mocks/node/http/host-names.ts';
import { sendError } from './gateway-errors.ts';

/** What the control routes answer with. */
export interface ControlSources {
  contractReport(): unknown;
  clientReport(): unknown;
  status(): unknown;
  /** Writes both reports to `--report-dir` now; the paths, or undefined without one. */
  writeReports(): Promise<string[] | undefined>;
}

export const CONTROL = '/__proxy/';

const ROUTES: Readonly<Record<string, readonly string[]>> = {
  'contract-report': ['GET'],
  'client-report': ['GET'],
  status: ['GET'],
  reports: ['POST'],
};

/**
 * `/__proxy/*`, the proxy's own routes, with the mock's control protections (mocks/core/control-access):
 * loopback only, never for a page of another origin, only under a Host naming the proxy (DNS
 * rebinding), a write only as `Content-Type: application/json`, and no CORS at all.
 */
export async function answerControl(
  req: IncomingMessage,
  res: ServerResponse,
  host: HostView,
  sources: ControlSources,
): Promise<void> {
  const url = req.url!;
  const [path = '', query = ''] = url.split('?');
  const request: CoreRequest = {
    method: req.method!,
    path,
    query,
    headers: req.headers as CoreRequest['headers'],
    origin: host.origin,
    remoteAddress: req.socket.remoteAddress ?? '',
    hostAllowed: host.allowed,
  };
  const refusal = controlRefusal(request, undefined);
  if (refusal !== undefined) {
    const body = typeof refusal.body === 'string' ? refusal.body : '';
    res.writeHead(refusal.status, refusal.headers);
    return void res.end(body);
  }
  const name = path.slice(CONTROL.length);
  const methods = ROUTES[name];
  if (methods === undefined)
    return sendError(res, {
      status: 404,
      code: 'not_found',
      message:
        `No proxy route ${path}: GET /__proxy/contract-report, /__proxy/client-report, ` +
        '/__proxy/status; POST /__proxy/reports',
    });
  const method = req.method === 'HEAD' ? 'GET' : req.method!;
  if (!methods.includes(method))
    return sendError(res, {
      status: 405,
      code: 'method_not_allowed',
      message: `${path} answers ${methods.join(', ')}`,
      headers: { allow: methods.join(', ') },
    });
  req.resume();
  const answer =
    name === 'reports' ? await written(sources) : { status: 200, value: valueOf(name, sources) };
  sendJson(res, answer.status, answer.value);
}

function valueOf(name: string, sources: ControlSources): unknown {
  if (name === 'contract-report') return sources.contractReport();
  if (name === 'client-report') return sources.clientReport();
  return sources.status();
}

async function written(sources: ControlSources): Promise<{ status: number; value: unknown }> {
  const paths = await sources.writeReports();
  if (paths === undefined)
    return {
      status: 409,
      value: {
        error: {
          message: 'the proxy runs without --report-dir: nothing to write to',
          type: 'invalid_request_error',
          code: 'no_report_dir',
        },
      },
    };
  return { status: 200, value: { written: paths } };
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}

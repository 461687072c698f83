import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorBody, errorResponse } from '../../mocks/core/http/errors.ts';
import type { Defect } from '../../mocks/defects/defect.ts';
import { hostError } from '../../mocks/node/http/host-answers.ts';
import type { CoreResponse } from '../../mocks/core/http/http-types.ts';
import type { MockService } from '../../mocks/core/service/service.ts';
import { expectConformant, expectControlConformant, seen } from '../helpers/conformance.ts';
import { coreClient, coreRequest } from '../helpers/core-client.ts';

// Every error body is built once, in mocks/core/http/errors.ts, with its message's ending (decisions/031): a
// learned profile's ` (request id: …)` names the answer's own X-Oneapi-Request-Id, and no finished
// body is read back to add it.
const ENDING = / \(request id: ([0-9A-Za-z]+)\)$/;

/** A defect that makes the core throw while answering a request with this header. */
const THROWS: Defect = {
  name: 'throws',
  description: 'the core fails on x-throw',
  breaks: [],
  before: (request) => {
    if (request.headers['x-throw'] !== undefined) throw new Error('boom');
    return request;
  },
};

/** The core's raw answer (headers too), as a host gets it. */
function ask(
  service: MockService,
  path: string,
  options: { method?: string; headers?: Record<string, string>; key?: string } = {},
): CoreResponse {
  const { method = 'GET', ...call } = options;
  return service.handle(coreRequest(method, path, call));
}

function messageOf(body: unknown): string {
  const b = body as { error?: { message: string }; message?: string };
  return b.error?.message ?? b.message!;
}

describe('error messages and the request-ID ending', () => {
  afterEach(() => vi.restoreAllMocks());

  it("ends the observed profile's unlearned service errors with the answer's own request ID, once", () => {
    const { call, submit, service } = coreClient({
      profile: 'observed',
      rateLimit: { requests: 8, windowMs: 60_000 },
      maxBodyBytes: 64,
      defects: [THROWS],
    });
    const id = submit();
    service.clock.advance(3_600_000);
    const tooLarge = service.handle(
      coreRequest('POST', '/v1/videos', { body: { p: 'x'.repeat(80) } }),
    );
    const answers = {
      route: ask(service, '/v1/nothing'), // OpenAI envelope, before any route
      tooLarge, // task envelope
      range: ask(service, `/v1/videos/${id}/content`, { headers: { range: 'bytes=99999999-' } }),
      internal: ask(service, '/v1/models', { headers: { 'x-throw': '1' } }),
    };
    for (let i = 0; i < 8; i++) call('GET', '/v1/models', { key: 'sk-mock-bob' });
    const limited = ask(service, '/v1/models', { key: 'sk-mock-bob' });
    expect(limited.status).toBe(429);
    expect(tooLarge.status).toBe(413);
    expect(answers.range.status).toBe(416);
    expectConformant('getVideoContent', seen(answers.range));
    for (const [name, answer] of Object.entries({ ...answers, limited })) {
      const message = messageOf(JSON.parse(answer.body as string));
      expect(message, name).toMatch(ENDING);
      expect(ENDING.exec(message)![1], name).toBe(answer.headers['x-oneapi-request-id']);
      expect(message.split('(request id:').length, name).toBe(2);
    }
  });

  it('writes an error body once: no JSON is parsed to answer an unknown route', () => {
    const { service } = coreClient({ profile: 'observed' });
    const parse = vi.spyOn(JSON, 'parse');
    const answer = ask(service, '/v1/nothing');
    const calls = parse.mock.calls.length;
    parse.mockRestore();
    expect(calls).toBe(0);
    expect(messageOf(JSON.parse(answer.body as string))).toMatch(ENDING);
  });

  it('answers the mock’s own routes (control API, temporary addresses) without the ending', () => {
    const { call } = coreClient({ profile: 'observed' });
    const control = call('GET', '/__mock/tasks/task_nope');
    expectControlConformant('getMockTask', control);
    expect(messageOf(control.body)).toBe('No task task_nope');
    const advance = call('POST', '/__mock/clock/advance', { body: { ms: -1 } });
    expect(advance.status).toBe(400);
    expect(messageOf(advance.body)).not.toMatch(/request id/);
    const artifact = call('GET', '/__artifacts/nope.mp4');
    expect(artifact.status).toBe(403);
    expect(messageOf(artifact.body)).not.toMatch(/request id/);
  });

  it('gives no ending in the documented profile', () => {
    const { service } = coreClient();
    const answer = ask(service, '/v1/nothing');
    expect(answer.headers['x-oneapi-request-id']).toMatch(/^\d+$/);
    expect(messageOf(JSON.parse(answer.body as string))).toBe(
      'No route for GET /v1/nothing: see the endpoints of §4',
    );
  });

  it("stamps a host's own answer (identify) with a request ID, its body as the host wrote it", () => {
    const { service } = coreClient({ profile: 'observed' });
    const answer = service.identify(hostError(503, 'temporarily_unavailable', 'try later'));
    expect(answer.headers['x-oneapi-request-id']).toMatch(/^[0-9A-Za-z]{31}$/);
    expect(JSON.parse(answer.body as string)).toEqual({
      error: {
        message: 'try later',
        // A host's 5xx is the server's error, as the table's temporarily_unavailable row says.
        type: 'server_error',
        code: 'temporarily_unavailable',
      },
    });
    expect(answer.headers['connection']).toBe('close');
  });

  it('builds each envelope from the one table, the ending last in the message', () => {
    expect(errorBody('route_not_found', { method: 'GET', path: '/x' }, ' (request id: 7)')).toEqual(
      {
        status: 404,
        body: {
          error: {
            message: 'No route for GET /x: see the endpoints of §4 (request id: 7)',
            type: 'invalid_request_error',
            code: 'route_not_found',
          },
        },
      },
    );
    expect(errorBody('body_too_large', { limit: 9 }).body).toEqual({
      code: 'request_body_too_large',
      message: 'The request body is larger than 9 bytes',
      data: null,
    });
    expect(errorBody('plugin_task_not_found', { taskId: 't' }).body).toEqual({
      error: { code: 'task_not_found', message: 'task t not found' },
    });
    const violated = errorResponse('client_rule_violated', { problem: 'poll slower' });
    expect(violated.status).toBe(400);
    expect(JSON.parse(violated.body as string)).toEqual({
      error: { message: 'poll slower', type: 'client_rule_violated', code: 'client_rule_violated' },
    });
  });
});

// The requests an isolation case makes, and how two answers are compared.
import { BUILT_IN_MODELS } from '../../mocks/core/keys/catalog.ts';
import type { CoreResponse } from '../../mocks/core/http/http-types.ts';
import type { MockService } from '../../mocks/core/service/service.ts';
import type { MockToken } from '../../mocks/core/keys/tokens.ts';
import type { IsoRoute } from './isolation-spec.ts';
import { coreRequest } from '../helpers/core-client.ts';
import { FUZZ_ORIGIN } from './world.ts';
export const TASK_ID = /task_[0-9A-Za-z]{32}/g;

export function call(
  service: MockService,
  token: MockToken,
  method: string,
  path: string,
  extra: { body?: unknown; headers?: Record<string, string> } = {},
): CoreResponse {
  return service.handle(
    coreRequest(method, path, { ...extra, key: token.key, origin: FUZZ_ORIGIN }),
  );
}

export function queryRoute(
  service: MockService,
  token: MockToken,
  route: IsoRoute,
  id: string,
): CoreResponse {
  switch (route) {
    case 'video':
      return call(service, token, 'GET', `/v1/videos/${id}`);
    case 'wrapper':
      return call(service, token, 'GET', `/v1/video/generations/${id}`);
    case 'content':
      return call(service, token, 'GET', `/v1/videos/${id}/content`);
    case 'content-head':
      return call(service, token, 'HEAD', `/v1/videos/${id}/content`);
    case 'content-range':
      return call(service, token, 'GET', `/v1/videos/${id}/content`, {
        headers: { range: 'bytes=0-99' },
      });
    case 'native':
      return call(service, token, 'GET', `/alt-video/api/v3/contents/generations/tasks/${id}`);
  }
}

export function bodyText(response: CoreResponse): string {
  const { body } = response;
  return body === undefined
    ? ''
    : typeof body === 'string'
      ? body
      : Buffer.from(body).toString('latin1');
}

/** An answer with one ID replaced and the per-request id dropped: what "the same answer" compares. */
export function normalized(response: CoreResponse, id: string): unknown {
  const scrub = (s: string) =>
    s
      .split(id)
      .join('<ID>')
      .replace(/\(request id: [0-9A-Za-z]+\)/g, '(request id: <RID>)');
  const headers = Object.fromEntries(
    Object.entries(response.headers)
      .filter(([name]) => name !== 'x-oneapi-request-id')
      .map(([name, value]) => [name, scrub(value)]),
  );
  return {
    status: response.status,
    headers,
    body: response.body === undefined ? undefined : scrub(bodyText(response)),
  };
}

export function expectedModels(token: MockToken, familyBound: boolean): string[] {
  return BUILT_IN_MODELS.filter(
    (m) =>
      m.groups.includes(token.group) &&
      (token.models === undefined || token.models.includes(m.id)) &&
      (m.family === 'primary' || familyBound),
  ).map((m) => m.id);
}

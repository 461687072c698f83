import { expect, it } from 'vitest';
import { expectConformant } from '../helpers/conformance.ts';
import { coreClient } from '../helpers/core-client.ts';

// Found by the Prism review (issue 17): `fail-at-submit:500` answered 500 on a submission, and the submit
// operations declared no 5xx (nor a 4xx beyond their own rows), so the answer was outside the spec. The
// gateway passes the upstream's status through (§7 "Submission returns 4xx", temporary 5xx): the spec
// declares `4XX` and `5XX` on every submit operation now.
const NATIVE = '/alt-video/api/v3/contents/generations/tasks';
const routes = [
  ['createVideoGeneration', '/v1/video/generations', { model: 'video-pro-v1', prompt: 'p' }],
  ['createVideo', '/v1/videos', { model: 'video-pro-v1', prompt: 'p' }],
  ['createPluginTask', NATIVE, { model: 'alt-video-v2', content: [{ type: 'text', text: 'p' }] }],
] as const;

it.each(
  routes.flatMap(([op, path, body]) =>
    [500, 502, 504, 409, 418].map((s) => [op, s, path, body] as const),
  ),
)(
  '%s answers fail-at-submit:%i with a declared, conformant error and creates no task',
  (operationId, status, path, body) => {
    const { call, service } = coreClient({ familyBound: true });
    const response = call('POST', path, {
      body,
      key: 'sk-mock-vip',
      headers: { 'x-mock-scenario': `fail-at-submit:${status}` },
    });
    expect(response.status).toBe(status);
    expectConformant(operationId, response);
    expect(service.store.size).toBe(0);
  },
);

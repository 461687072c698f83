import { describe, expect, it } from 'vitest';
import { coreClient, coreRequest } from '../helpers/core-client.ts';

// Issue 23: the client's request ID and the service's answer ID are named apart (the old names,
// never released, are gone: issue 36 item 4).
describe('client and service request IDs, by name', () => {
  it('counts submissions per client request ID', () => {
    const { service, call } = coreClient();
    const body = { model: 'video-pro-v1', prompt: 'a red kite' };
    for (let n = 0; n < 2; n++)
      expect(call('POST', '/v1/videos', { body, headers: { 'x-request-id': 'mine' } }).status).toBe(
        200,
      );
    expect(service.submissionsByClientRequestId.get('mine')).toBe(2);
    expect(service.shared.clientRequestIds.get('mine')).toBe(2);
  });

  const answerId = (options: Parameters<typeof coreClient>[0]): number => {
    const { service } = coreClient(options);
    const answer = service.handle(coreRequest('GET', '/v1/nothing', { key: null }));
    return Number(answer.headers['x-oneapi-request-id']!.slice(-8));
  };

  it('numbers service request IDs by serviceRequestIds', () => {
    expect(answerId({})).toBe(1);
    expect(answerId({ serviceRequestIds: { first: 3, step: 5 } })).toBe(3);
  });
});

import { describe, expect, it } from 'vitest';
import { coreClient, coreRequest } from '../helpers/core-client.ts';

// Issue 23: the client's request ID and the service's answer ID are named apart; the old public
// names still work (deprecated).
describe('client and service request IDs, by name', () => {
  it('counts submissions per client request ID under both the new and the deprecated name', () => {
    const { service, call } = coreClient();
    const body = { model: 'video-pro-v1', prompt: 'a red kite' };
    for (let n = 0; n < 2; n++)
      expect(call('POST', '/v1/videos', { body, headers: { 'x-request-id': 'mine' } }).status).toBe(
        200,
      );
    expect(service.submissionsByClientRequestId.get('mine')).toBe(2);
    expect(service.submissionsByRequestId).toBe(service.submissionsByClientRequestId);
    expect(service.shared.clientRequestIds.get('mine')).toBe(2);
  });

  const answerId = (options: Parameters<typeof coreClient>[0]): number => {
    const { service } = coreClient(options);
    const answer = service.handle(coreRequest('GET', '/v1/nothing', { key: null }));
    return Number(answer.headers['x-oneapi-request-id']!.slice(-8));
  };

  it('numbers service request IDs by serviceRequestIds, or the deprecated requestIds', () => {
    expect(answerId({})).toBe(1);
    expect(answerId({ serviceRequestIds: { first: 3, step: 5 } })).toBe(3);
    expect(answerId({ requestIds: { first: 4, step: 5 } })).toBe(4);
    expect(
      answerId({ serviceRequestIds: { first: 2, step: 5 }, requestIds: { first: 4, step: 5 } }),
    ).toBe(2);
  });
});

import { expect, it } from 'vitest';
import { DEFAULT_ARTIFACT_TTL_MS } from '../../mocks/core/service/service.ts';
import { controlSpec, responseProblems, SpecValidators } from '../../src/spec/index.ts';
import { coreClient } from '../helpers/core-client.ts';

// Found by the Prism review (issue 17): an expired temporary result address answered 410 with the code
// `artifact_expired`, while the spec and the gateway facts say `artifact_gone`.
it('answers an expired temporary address 410 artifact_gone, as the spec declares', () => {
  const { call, submit, service } = coreClient();
  const id = submit();
  service.clock.advance(120_000);
  const task = call('GET', `/v1/videos/${id}`).body as { metadata: { url: string } };
  const url = new URL(task.metadata.url);
  service.clock.advance(DEFAULT_ARTIFACT_TTL_MS);

  const expired = call('GET', url.pathname, { key: null, query: url.search.slice(1) });

  expect(expired.status).toBe(410);
  expect(expired.body).toMatchObject({ error: { code: 'artifact_gone' } });
  const control = new SpecValidators(controlSpec);
  expect(responseProblems(control, 'getMockArtifact', expired)).toEqual([]);
});

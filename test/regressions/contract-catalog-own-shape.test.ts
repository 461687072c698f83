import { expect, it } from 'vitest';
import { checkInProcess } from '../contracts/support/in-process.ts';
import { OWN_WAY } from '../contracts/support/own-way.ts';

// "Response shape of /v1/models: not shown" (§4), yet catalog.lists-model (§9 step 3, documented)
// failed any catalog not shaped like the gateway's `{data: [{id}]}`: "answered HTTP 200 without a
// model list", a false alarm on a deployment that lists the model its own way. The suite now finds the
// model ID anywhere in another shape, and still fails a catalog that does not list it.
const catalog = OWN_WAY.find((defect) => defect.name === 'own-way-catalog-shape')!;

it('passes a catalog that lists the model in its own shape', async () => {
  const { report } = await checkInProcess({ defects: [catalog] });
  expect(report.results.find((r) => r.id === 'catalog.lists-model')!.outcome).toBe('pass');
  expect(report.results.find((r) => r.id === 'catalog.shape')!.outcome).toBe('warn');
  expect(report.ok).toBe(true);
});

it('fails a catalog in its own shape that does not list the model', async () => {
  const { report } = await checkInProcess({ defects: [catalog] }, { model: 'no-such-model-v9' });
  const listed = report.results.find((r) => r.id === 'catalog.lists-model')!;
  expect(listed.outcome).toBe('fail');
  expect(listed.violations[0]!.message).toMatch(/does not list no-such-model-v9/);
});

import { expect, it } from 'vitest';
import { checkInProcess } from '../contracts/support/in-process.ts';
import { OWN_WAY } from '../contracts/support/own-way.ts';

// "Response shape of /v1/models: not shown" (§4), yet catalog.lists-model (§9 step 3, documented)
// failed any catalog not shaped like the gateway's `{data: [{id}]}`: "answered HTTP 200 without a
// model list", a false alarm on a deployment that lists the model its own way. The suite now finds the
// model ID anywhere in another shape. A model it does not list is an input error (issue 22: the run
// stops before submitting anything and exits 2, naming the models it lists), never a verdict.
const catalog = OWN_WAY.find((defect) => defect.name === 'own-way-catalog-shape')!;

it('passes a catalog that lists the model in its own shape', async () => {
  const { report } = await checkInProcess({ defects: [catalog] });
  expect(report.results.find((r) => r.id === 'catalog.lists-model')!.outcome).toBe('pass');
  expect(report.results.find((r) => r.id === 'catalog.shape')!.outcome).toBe('warn');
  expect(report.ok).toBe(true);
});

it('reads a model a catalog in its own shape does not list as an input error', async () => {
  const { report } = await checkInProcess({ defects: [catalog] }, { model: 'no-such-model-v9' });
  expect(report.results.find((r) => r.id === 'catalog.lists-model')!.outcome).toBe('skip');
  expect(report.inputErrors).toEqual([
    expect.stringMatching(/^--model no-such-model-v9 is not listed .*it lists video-pro-v1, video/),
  ]);
  expect(report.tasksCreated).toBe(0);
});

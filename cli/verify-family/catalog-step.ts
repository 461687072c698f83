import { PermissionDeniedError } from '../../src/client/index.ts';
import { SECOND_FAMILY } from '../../src/spec/second-family.ts';
import { ADVICE } from './advice.ts';
import { messageOf } from './error-facts.ts';
import type { StepRecorder } from './step-recorder.ts';
import type { CatalogCheck } from './verify-settings.ts';

/** How many of the catalog's other model IDs a failure names. */
const SHOWN_IDS = 12;

/** `a, b, c, …`: the first IDs the catalog lists, or `no model`. */
function preview(ids: readonly string[]): string {
  if (ids.length === 0) return 'no model';
  const more = ids.length > SHOWN_IDS ? ', …' : '';
  return `${ids.slice(0, SHOWN_IDS).join(', ')}${more}`;
}

/** §9 step 3: `/v1/models` lists the model for this token. Returns whether the run goes on. */
export function checkCatalog(r: StepRecorder, model: string, catalog: CatalogCheck): boolean {
  if (!catalog.ok) {
    const forbidden = catalog.error instanceof PermissionDeniedError;
    const advice = forbidden ? ADVICE.catalogForbidden : ADVICE.catalogUnreadable;
    const detail = `GET /v1/models failed: ${messageOf(catalog.error)}`;
    r.fail('catalog', detail, advice, catalog.error);
    r.skipRest('not reached: the catalog could not be read; nothing was submitted');
    return false;
  }
  if (!catalog.ids.has(model)) {
    const listed = preview([...catalog.ids]);
    const detail = `/v1/models does not list ${model} for this token (it lists ${listed})`;
    r.fail('catalog', detail, ADVICE.notListed);
    r.skipRest('not reached: the model is not listed for this token; nothing was submitted');
    return false;
  }
  r.pass('catalog', `/v1/models lists ${model} for this token`);
  r.log('step 3: listed by /v1/models');
  return true;
}

/**
 * Why the run must not start: a `--model` the catalog does not list that is not one of the second
 * family's IDs either (§1) is a typo, not a model to verify (exit 2, nothing submitted, no record).
 * One of the family's IDs not listed is step 3 failing, recorded as such. Undefined when all are known
 * (or the catalog could not be read: every model then fails step 3 anyway).
 */
export function unknownModels(
  catalog: CatalogCheck,
  models: readonly string[],
): string | undefined {
  if (!catalog.ok) return undefined;
  const unknown = models.filter((m) => !catalog.ids.has(m) && !SECOND_FAMILY.models.includes(m));
  if (unknown.length === 0) return undefined;
  const names = unknown.join(', ');
  return (
    `videotask verify-family: --model ${names} ${unknown.length > 1 ? 'are' : 'is'} neither listed ` +
    `by /v1/models for this key nor a second-family model ID (§1: ${SECOND_FAMILY.models.join(', ')}); ` +
    `the catalog lists ${preview([...catalog.ids])}.\n` +
    '  → nothing was submitted and no record was written; check --model for a typo.'
  );
}

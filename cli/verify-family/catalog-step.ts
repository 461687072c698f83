import { PermissionDeniedError } from '../../src/client/index.ts';
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

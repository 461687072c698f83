import { operationsWith } from '../../src/spec/route-roles.ts';
import { catalogModelIds } from '../../src/client/catalog-ids.ts';
import { maskKey } from '../../src/redaction/redactor.ts';
import { keyOf, type Exchange } from '../http-recorder.ts';
import { routeRequest, type RouteId } from '../matrix/index.ts';
import type { RunContext } from '../run-context.ts';
import { SECOND_FAMILY } from '../target.ts';
import { judgeable } from './answered.ts';
import { CHECKS } from './definitions.ts';
import { evidenceOf, is2xx } from './evidence.ts';
import { judgeRefusal } from './refusal.ts';
import { notProbed } from './submission-probes.ts';
import { SUBMIT_ROUTES } from './submission.ts';

const CATALOG = routeRequest('listModels');
/** A well-formed task ID that no deployment has issued. */
export const UNKNOWN_TASK_ID = 'task_videotaskContractUnknown000000';

/**
 * `/v1/models`: answers and lists the target model (§9 step 3), refuses a missing or invalid key (§5),
 * accepts the second user's key (else the other-user cells are not observed: an input error), and says
 * whether the second family is open to this key. The native path is observed only when the run names a
 * family model and plugin and the catalog lists that model.
 */
export async function probeCatalog(ctx: RunContext): Promise<void> {
  const { recorder } = ctx;
  const exchange = await recorder.send('catalog', ...CATALOG);
  const cell = { route: 'listModels', state: 'n/a', caller: 'owner' } as const;
  const keyless = (['none', 'invalid'] as const).map(async (caller) => {
    const refused = await recorder.send(`catalog, ${caller} key`, ...CATALOG, {
      as: caller,
    });
    judgeRefusal(ctx, refused, { route: 'listModels', state: 'n/a', caller });
  });
  const other = checkOtherKey(ctx, exchange);
  if (judgeable(ctx, exchange, cell)) judgeCatalog(ctx, exchange);
  else openNativePath(ctx, undefined);
  await Promise.all([...keyless, other]);
}

/**
 * The second user's key, tried on the catalog (free) before it is trusted. Refused (401, or 403 where
 * the primary key was served), it would read every ownership cell as kept (§5) while it proves nothing:
 * those cells are not observed, and the run says so (an input error, exit 2, unless `--tier free`,
 * which asks no ownership cell).
 */
async function checkOtherKey(ctx: RunContext, primary: Exchange): Promise<void> {
  const key = ctx.target.otherApiKey;
  if (key === undefined) return;
  const exchange = await ctx.recorder.send('catalog, other key', ...CATALOG, {
    as: 'other',
  });
  const refused = exchange.status === 401 || (exchange.status === 403 && is2xx(primary));
  if (!refused) return;
  const why = `the other key was refused (HTTP ${exchange.status} on GET /v1/models)`;
  ctx.otherCaller = false;
  ctx.coverage.because(why, { callers: ['other'] });
  for (const check of [CHECKS.ownerStatus, CHECKS.ownerContent]) ctx.verdicts.skip(check, why);
  const message =
    `--other-api-key ${maskKey(key)} was refused by the deployment (HTTP ${exchange.status} on ` +
    'GET /v1/models), so the other-user cells (§5 ownership) were not observed. Pass a valid key ' +
    'of another user (--other-api-key / VIDEOTASK_OTHER_API_KEY), or leave it out.';
  if (ctx.target.tier === 'free') ctx.notes.push(message);
  else ctx.inputErrors.push({ message, stopsSubmissions: false });
}

function judgeCatalog(ctx: RunContext, exchange: Exchange): void {
  const { recorder, verdicts: v, target } = ctx;
  const ev = evidenceOf(recorder, exchange, undefined, {
    route: 'listModels',
    state: 'n/a',
    caller: 'owner',
  });
  const ids = catalogModelIds(exchange.json);
  const readable = is2xx(exchange) && ids !== undefined;
  const unlisted = readable ? unlistedModels(target, ids) : [];
  if (unlisted.length > 0)
    ctx.inputErrors.push({ message: unlistedMessage(unlisted, ids!), stopsSubmissions: true });
  if (unlisted.some((u) => u.model === target.model))
    v.skip(
      CHECKS.catalogListsModel,
      `--model ${target.model} is not listed for this key: an input error (exit 2), not a verdict`,
    );
  else
    v.expect(
      CHECKS.catalogListsModel,
      readable,
      `the catalog answered HTTP ${exchange.status} without a model list`,
      ev,
    );
  if (is2xx(exchange)) {
    const shape = v.spec.validators
      .response('listModels', 200)!
      .body('application/json')!
      .validateFull(exchange.json);
    v.expect(
      CHECKS.catalogShape,
      shape.valid,
      `the catalog differs from the gateway's shape: ${shape.errors.join('; ')}`,
      ev,
    );
  }
  if (ids !== undefined) ctx.notes.push(familyNote(ids));
  if (ids !== undefined) checkForbiddenModel(ctx, ids);
  openNativePath(ctx, ids);
}

/**
 * `--forbidden-model`, checked against the catalog before it is trusted: listed for this key, the key
 * may use it (the catalog lists the models a token may use, `catalog-lists-model`), so submitting it
 * would prove nothing and might create a task. An input error (a note under `--tier free`, which
 * submits nothing); the §5 probe is not sent.
 */
function checkForbiddenModel(ctx: RunContext, ids: readonly string[]): void {
  const model = ctx.forbiddenModel;
  if (model === undefined || !ids.includes(model)) return;
  ctx.forbiddenModel = undefined;
  const why = `--forbidden-model ${model} is listed for this key (an input error)`;
  for (const route of SUBMIT_ROUTES) notProbed(ctx, 'model-permissions', route, why);
  const message =
    `--forbidden-model ${model} is listed by GET /v1/models for this key, so the key may use it ` +
    '(§5): it was not submitted. Name a model this key may not use (--forbidden-model / ' +
    'VIDEOTASK_FORBIDDEN_MODEL), or leave it out.';
  if (ctx.target.tier === 'free') ctx.notes.push(message);
  else ctx.inputErrors.push({ message, stopsSubmissions: false });
}

interface Unlisted {
  readonly flag: string;
  readonly variable: string;
  readonly model: string;
}

/**
 * The models the run was told to use that the catalog does not list for this key: `--model`,
 * `--failing-model`, and a `--family-model` that is not one of the second family's IDs (§1; one of
 * those not listed is the family not yet open, a note, not a typo).
 */
function unlistedModels(target: RunContext['target'], ids: readonly string[]): Unlisted[] {
  const named: Unlisted[] = [{ flag: '--model', variable: 'VIDEOTASK_MODEL', model: target.model }];
  const failing = target.failing?.model;
  if (failing !== undefined)
    named.push({ flag: '--failing-model', variable: 'VIDEOTASK_FAILING_MODEL', model: failing });
  const family = target.family?.model;
  if (family !== undefined && !SECOND_FAMILY.includes(family))
    named.push({ flag: '--family-model', variable: 'VIDEOTASK_FAMILY_MODEL', model: family });
  return named.filter((n) => !ids.includes(n.model));
}

/** How many of the catalog's models a message names. */
const SHOWN_MODELS = 20;

function unlistedMessage(unlisted: readonly Unlisted[], ids: readonly string[]): string {
  const names = unlisted.map((u) => `${u.flag} ${u.model}`).join(' and ');
  const shown = ids.slice(0, SHOWN_MODELS).join(', ');
  const more = ids.length > SHOWN_MODELS ? `, … (${ids.length} in all)` : '';
  const lists = ids.length === 0 ? 'it lists no model' : `it lists ${shown}${more}`;
  const variables = unlisted.map((u) => `${u.flag} / ${u.variable}`).join(', ');
  return (
    `${names} ${unlisted.length > 1 ? 'are' : 'is'} not listed by GET /v1/models for this key ` +
    `(${lists}), so nothing was submitted. Check ${variables} for a typo, or the key's group ` +
    'and permissions (§5).'
  );
}

function familyNote(ids: readonly string[]): string {
  const visible = SECOND_FAMILY.filter((m) => ids.includes(m));
  if (visible.length === 0)
    return `second family: none of ${SECOND_FAMILY.join(', ')} is listed for this key`;
  const hidden = SECOND_FAMILY.filter((m) => !visible.includes(m));
  const notListed = hidden.length > 0 ? ` (not ${hidden.join(', ')})` : '';
  return `second family: ${visible.join(', ')} listed for this key${notListed}`;
}

const NATIVE_ROUTES: readonly RouteId[] = operationsWith({ family: 'second' });

function openNativePath(ctx: RunContext, ids: readonly string[] | undefined): void {
  const family = ctx.target.family;
  if (family === undefined) {
    ctx.verdicts.skip(CHECKS.nativeQuery, 'no second family named (--family-model and --plugin)');
    ctx.coverage.because('no second family named (--family-model and --plugin)', {
      routes: NATIVE_ROUTES,
    });
    return;
  }
  if (ids?.includes(family.model) !== true) {
    ctx.verdicts.skip(CHECKS.nativeQuery, `${family.model} is not listed for this key`);
    ctx.coverage.because(
      `no second family: the catalog does not list ${family.model} for this key`,
      { routes: NATIVE_ROUTES },
    );
    ctx.notes.push(
      `native path not checked: ${family.model} is not listed for this key (is the plugin bound?)`,
    );
    return;
  }
  ctx.native = family;
}

/**
 * A task that does not exist, on every route that names one, by the owner and without a (valid) key
 * (§5, §4.4). All at once: GETs create nothing, and a target that hangs costs one request's time limit.
 */
export async function probeMissingTask(ctx: RunContext): Promise<void> {
  const routes: RouteId[] = operationsWith({ kind: ['query', 'content'], family: 'any' });
  if (ctx.native !== undefined) routes.push('getPluginTask');
  const cells = routes.flatMap((route) =>
    (['owner', 'none', 'invalid'] as const).map((caller) => ({ route, caller })),
  );
  await Promise.all(
    cells.map(async ({ route, caller }) => {
      const request = routeRequest(route, UNKNOWN_TASK_ID, ctx.native?.plugin);
      const exchange = await ctx.recorder.send(`missing task, ${caller}`, ...request, {
        as: keyOf(caller),
      });
      judgeRefusal(ctx, exchange, { route, state: 'missing', caller }, { taskId: UNKNOWN_TASK_ID });
    }),
  );
}

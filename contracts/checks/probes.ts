import { catalogModelIds } from '../../src/client/catalog-ids.ts';
import { serviceContract } from '../../src/spec/index.ts';
import { keyOf, type Exchange } from '../http-recorder.ts';
import { routePath, type RouteId } from '../matrix/index.ts';
import type { RunContext } from '../run-context.ts';
import { SECOND_FAMILY } from '../target.ts';
import { judgeable } from './answered.ts';
import { CHECKS } from './definitions.ts';
import { evidenceOf, is2xx } from './evidence.ts';
import { judgeRefusal } from './refusal.ts';

const { validators } = serviceContract();
/** A well-formed task ID that no deployment has issued. */
export const UNKNOWN_TASK_ID = 'task_videotaskContractUnknown000000';

/**
 * `/v1/models`: answers and lists the target model (§9 step 3), refuses a missing or invalid key (§5),
 * and says whether the second family is open to this key. The native path is observed only when the
 * run names a family model and plugin and the catalog lists that model.
 */
export async function probeCatalog(ctx: RunContext): Promise<void> {
  const { recorder } = ctx;
  const exchange = await recorder.send('catalog', 'GET', '/v1/models');
  const cell = { route: 'listModels', state: 'n/a', caller: 'owner' } as const;
  const keyless = (['none', 'invalid'] as const).map(async (caller) => {
    const refused = await recorder.send(`catalog, ${caller} key`, 'GET', '/v1/models', {
      as: caller,
    });
    judgeRefusal(ctx, refused, { route: 'listModels', state: 'n/a', caller });
  });
  if (judgeable(ctx, exchange, cell)) judgeCatalog(ctx, exchange);
  else openNativePath(ctx, undefined);
  await Promise.all(keyless);
}

function judgeCatalog(ctx: RunContext, exchange: Exchange): void {
  const { recorder, verdicts: v, target } = ctx;
  const ev = evidenceOf(recorder, exchange, undefined, {
    route: 'listModels',
    state: 'n/a',
    caller: 'owner',
  });
  const ids = catalogModelIds(exchange.json);
  const listed = is2xx(exchange) && ids?.includes(target.model) === true;
  const why =
    ids === undefined
      ? `the catalog answered HTTP ${exchange.status} without a model list`
      : `the catalog does not list ${target.model} for this key (it lists ${ids.slice(0, 8).join(', ') || 'nothing'})`;
  v.expect(CHECKS.catalogListsModel, listed, why, ev);
  if (is2xx(exchange)) {
    const shape = validators
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
  openNativePath(ctx, ids);
}

function familyNote(ids: readonly string[]): string {
  const visible = SECOND_FAMILY.filter((m) => ids.includes(m));
  if (visible.length === 0)
    return `second family: none of ${SECOND_FAMILY.join(', ')} is listed for this key`;
  const hidden = SECOND_FAMILY.filter((m) => !visible.includes(m));
  const notListed = hidden.length > 0 ? ` (not ${hidden.join(', ')})` : '';
  return `second family: ${visible.join(', ')} listed for this key${notListed}`;
}

const NATIVE_ROUTES: readonly RouteId[] = ['createPluginTask', 'getPluginTask'];

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
  const routes: RouteId[] = ['getVideo', 'getVideoGeneration', 'getVideoContent'];
  if (ctx.native !== undefined) routes.push('getPluginTask');
  const cells = routes.flatMap((route) =>
    (['owner', 'none', 'invalid'] as const).map((caller) => ({ route, caller })),
  );
  await Promise.all(
    cells.map(async ({ route, caller }) => {
      const path = routePath(route, UNKNOWN_TASK_ID, ctx.native?.plugin);
      const exchange = await ctx.recorder.send(`missing task, ${caller}`, 'GET', path, {
        as: keyOf(caller),
      });
      judgeRefusal(ctx, exchange, { route, state: 'missing', caller }, { taskId: UNKNOWN_TASK_ID });
    }),
  );
}

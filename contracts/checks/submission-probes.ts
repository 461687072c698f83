import { randomUUID } from 'node:crypto';
import type { Caller, Cell } from '../matrix/index.ts';
import type { LifecycleTask, RunContext } from '../run-context.ts';
import { CHECKS } from './definitions.ts';
import { judgeRefusal, type RefusalProbe } from './refusal.ts';
import { bodyFor, submit, SUBMIT_ROUTES, type Payload } from './submission.ts';

/**
 * The submissions the run sends to be refused (§2.1, §4.5, §5, §7), each judged by the rule it is sent
 * for. Each reserves a budget unit while it is in flight: a broken deployment could make a task of it.
 */

/**
 * Units of the budget a refusal probe leaves untouched: one lifecycle task's, so a deployment that
 * wrongly accepts probes (each then a task) still has a task of the run followed (issue 31 item 4).
 */
export const LIFECYCLE_SHARE = 1;

const NO_BUDGET =
  'the task budget leaves nothing for a submission a broken deployment could accept, ' +
  "beyond a lifecycle task's share (a larger --budget sends it)";

/** The check of each rule a refusal probe is sent for. */
const CHECK_OF_PROBE = {
  'empty-prompt-invalid': CHECKS.emptyPrompt,
  'required-fields': CHECKS.requiredFields,
  'model-permissions': CHECKS.modelPermissions,
  'multipart-upload-refused': CHECKS.fileUpload,
  'native-formats-not-mixed': CHECKS.nativeMixed,
} as const;

/** A submission the owner sends to be refused, and the rule its answer is judged by. */
interface OwnerProbe extends RefusalProbe {
  readonly rule: keyof typeof CHECK_OF_PROBE;
  readonly payload: Payload;
}

export const PROBE = 'videotask contract check';

/**
 * The owner's refusal probes on a route: an empty and a blank prompt (§7); each required field of §2.1
 * (`model`, `prompt`: strings) left out or of another type; on the native path, the native body with
 * the OpenAI form's own fields mixed in (`NativeFormatOnly` forbids them, §4.5).
 */
function ownerProbes(route: LifecycleTask['route'], model: string): OwnerProbe[] {
  if (route === 'createPluginTask') {
    const mixed = {
      ...(bodyFor(route, model, PROBE) as object),
      prompt: PROBE,
      metadata: { duration: 5 },
    };
    return [
      {
        rule: 'native-formats-not-mixed',
        what: 'mixing in prompt and metadata',
        payload: { json: mixed },
      },
    ];
  }
  const metadata = { duration: 5 };
  const empty = (what: string, prompt: string): OwnerProbe => ({
    rule: 'empty-prompt-invalid',
    what,
    payload: { json: bodyFor(route, model, prompt) },
  });
  const required = (what: string, body: object): OwnerProbe => ({
    rule: 'required-fields',
    what,
    payload: { json: { ...body, metadata } },
  });
  return [
    empty('with an empty prompt', ''),
    empty('with a blank prompt', ' \n\t '),
    required('without model', { prompt: PROBE }),
    required('with a number for model', { model: 42, prompt: PROBE }),
    required('without prompt', { model }),
    required('with an array for prompt', { model, prompt: [PROBE] }),
  ];
}

/**
 * Submissions that must be refused, on every submit path the run observes: an empty and a blank prompt
 * (§7), a missing or mistyped required field (§2.1), a model the key may not use (§5) and a file upload
 * (§2.1) when the run's inputs allow them (`inputProbes`), a native body mixing in the OpenAI form
 * (§4.5), no key or an invalid key (§5). Each reserves a budget unit while it is in flight, since a
 * broken deployment could turn it into a (paid) task, and is sent only while a lifecycle task's share
 * (`LIFECYCLE_SHARE`) stays free.
 */
export async function probeSubmissionRefusals(ctx: RunContext): Promise<void> {
  const { target } = ctx;
  const routes: LifecycleTask['route'][] = [...SUBMIT_ROUTES];
  if (ctx.native !== undefined) routes.push('createPluginTask');
  for (const route of routes) {
    const model = route === 'createPluginTask' ? ctx.native!.model : target.model;
    for (const probe of [...ownerProbes(route, model), ...inputProbes(ctx, route)])
      await refuse(ctx, route, probe.payload, probe);
    for (const caller of ['none', 'invalid'] as const)
      await refuse(ctx, route, { json: bodyFor(route, model, PROBE) }, caller);
  }
}

/** Sends a probe that must be refused: the owner's (`probe`: what it does wrong) or a keyless caller's. */
async function refuse(
  ctx: RunContext,
  route: LifecycleTask['route'],
  payload: Payload,
  by: OwnerProbe | Exclude<Caller, 'other' | 'owner'>,
): Promise<void> {
  const caller = typeof by === 'string' ? by : 'owner';
  const probe = typeof by === 'string' ? undefined : by;
  const exchange = await submit(ctx, route, payload, {
    caller,
    keep: LIFECYCLE_SHARE,
    what: `the probe ${probe?.what ?? `with ${caller === 'none' ? 'no' : 'an invalid'} key`} on ${route}`,
    // Once a 429 outlasted a submission's tries, a probe is not worth another wait.
    retry: !ctx.rateLimitPersisted,
  });
  const cell: Cell = { route, state: 'n/a', caller };
  if (exchange === undefined) {
    ctx.verdicts.skip(
      probe === undefined ? CHECKS.authRequired : CHECK_OF_PROBE[probe.rule],
      NO_BUDGET,
    );
    ctx.coverage.because('budget', { routes: [route], callers: [caller] });
    if (probe !== undefined)
      ctx.coverage.ruleNotJudged(probe.rule, 'budget', { routes: [route], callers: [caller] });
    return;
  }
  judgeRefusal(ctx, exchange, cell, { probe: probe && { rule: probe.rule, what: probe.what } });
}

/** Why the run sent no probe of a model the key may not use, when it sent none (§5). */
const NO_FORBIDDEN_MODEL = 'no forbidden model given (--forbidden-model)';
/** Why the run sent no file upload (§2.1: the second family's references). */
const NO_FAMILY = 'no second family open to this key (--family-model and --plugin)';

/**
 * The probes the run's inputs allow on a route, besides the owner's fixed ones: a model the key may
 * not use, on both documented paths (§5; `--forbidden-model`, unless the catalog lists it for this
 * key); a multipart upload of a reference file for the second family, on the entry it uses (§2.1,
 * `POST /v1/videos`; once the catalog shows the family open). Without the input, the rule is not
 * judged, and its cells say why.
 */
function inputProbes(ctx: RunContext, route: LifecycleTask['route']): OwnerProbe[] {
  if (route === 'createPluginTask') return [];
  const probes: OwnerProbe[] = [];
  const forbidden = ctx.forbiddenModel;
  if (forbidden !== undefined)
    probes.push({
      rule: 'model-permissions',
      what: `with the model ${forbidden}, which this key may not use`,
      payload: { json: bodyFor(route, forbidden, PROBE) },
    });
  else notProbed(ctx, 'model-permissions', route, NO_FORBIDDEN_MODEL);
  if (route !== 'createVideo') return probes;
  if (ctx.native !== undefined)
    probes.push({
      rule: 'multipart-upload-refused',
      what: `as multipart/form-data uploading a reference file for ${ctx.native.model}`,
      payload: fileUpload(ctx.native.model),
    });
  else notProbed(ctx, 'multipart-upload-refused', route, NO_FAMILY);
  return probes;
}

/** The check and the route's cell say why a rule was not judged (the first reason recorded wins). */
export function notProbed(
  ctx: RunContext,
  rule: OwnerProbe['rule'],
  route: LifecycleTask['route'],
  why: string,
): void {
  ctx.verdicts.skip(CHECK_OF_PROBE[rule], why);
  ctx.coverage.ruleNotJudged(rule, why, { routes: [route], callers: ['owner'] });
}

/** A small reference image, as a client would upload it. */
const REFERENCE_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="9"><rect width="16" height="9"/></svg>';

/**
 * A `multipart/form-data` submission (RFC 7578) of the second family's model with a reference image
 * uploaded as a file, as the openai SDK's `videos.create` sends `input_reference` (§2.1: "Multipart
 * file upload is not accepted"; references are URLs in `metadata.content`).
 */
function fileUpload(model: string): Payload {
  const boundary = `videotask-contract-${randomUUID()}`;
  const field = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const file =
    `--${boundary}\r\nContent-Disposition: form-data; name="input_reference"; ` +
    `filename="reference.svg"\r\nContent-Type: image/svg+xml\r\n\r\n${REFERENCE_SVG}\r\n`;
  return {
    rawBody: `${field('model', model)}${field('prompt', PROBE)}${file}--${boundary}--\r\n`,
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

import type { VideoTaskClient } from '../../src/client/index.ts';
import { checkCatalog } from './catalog-step.ts';
import { downloadVideo } from './download-step.ts';
import type { ModelVerification } from './model-verification.ts';
import { pollToFinal } from './poll-step.ts';
import { StepRecorder } from './step-recorder.ts';
import { submitOnce } from './submit-step.ts';
import { usageStep } from './usage-step.ts';
import type { CatalogCheck, VerifySettings } from './verify-settings.ts';

/**
 * §9 steps 3–5 for one model of the second family: the catalog check, one short task, its final state,
 * the download through `/content`, whatever usage or charge the service exposes, and the record of it
 * all. Never submits more than once (a 429 is retried with the same request ID, §7; an unconfirmed
 * submission is not), never calls anything but the service's documented endpoints (and, when asked,
 * the plugin's native status path). Never throws for a service failure (it is recorded).
 */
export async function verifyModel(
  client: VideoTaskClient,
  model: string,
  catalog: CatalogCheck,
  settings: VerifySettings,
): Promise<ModelVerification> {
  const r = new StepRecorder(model, client.baseUrl, {
    dryRun: settings.dryRun,
    redactor: settings.redactor,
    log: (text) => settings.log(model, text),
  });
  if (!checkCatalog(r, model, catalog)) return r.finish();
  if (settings.dryRun) {
    r.skipRest('--dry-run: only the catalog check; nothing was submitted');
    return r.finish();
  }
  const task = await submitOnce(client, r, settings);
  if (task === undefined) return r.finish();
  const final = await pollToFinal(client, r, task, settings);
  if (final === undefined) return r.finish();
  if (final.status !== 'failed') await downloadVideo(client, r, final.id, settings.signal);
  await usageStep(client, r, final, settings);
  return r.finish();
}

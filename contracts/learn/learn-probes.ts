import type { Tool } from '../../src/tool-mark.ts';
import { PROBE } from '../checks/submission-probes.ts';
import { submissionOutcome } from '../checks/submission-outcome.ts';
import { HttpRecorder, type SendInit } from '../http-recorder.ts';
import { routeRequest } from '../matrix/index.ts';
import type { ContractReport } from '../report.ts';
import type { ContractTarget } from '../target.ts';
import { UNKNOWN_MODEL, type RunObserver } from './run-observer.ts';

const BOUNDARY = 'videotask-learn-boundary';

/** A multipart submission with an empty prompt: read as a form (a refused prompt), or refused as such. */
const MULTIPART = [
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="model"\r\n\r\n%MODEL%\r\n`,
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="prompt"\r\n\r\n\r\n`,
  `--${BOUNDARY}--\r\n`,
].join('');

/**
 * Refusals a contract run does not ask but a mock of the deployment must word as it does: a body that
 * is not JSON, a multipart form (`openai`'s `videos.create` sends one) with an empty prompt, a model no
 * deployment has. Each could create a (paid) task on a broken deployment, so each needs a unit of the
 * budget the run left, given back only when clearly refused (a 4xx; decisions/015's rule). The unknown
 * model goes last: the gateway refuses it with a 503, which keeps its unit.
 */
function probes(target: ContractTarget): { label: string; init: SendInit }[] {
  return [
    {
      label: 'learn probe: not JSON',
      init: { rawBody: '{"model": ', contentType: 'application/json' },
    },
    {
      label: 'learn probe: multipart, empty prompt',
      init: {
        rawBody: MULTIPART.replace('%MODEL%', target.model),
        contentType: `multipart/form-data; boundary=${BOUNDARY}`,
      },
    },
    {
      label: 'learn probe: unknown model',
      init: { json: { model: UNKNOWN_MODEL, prompt: PROBE, metadata: { duration: 5 } } },
    },
  ];
}

/**
 * Sends the learning probes after a lifecycle run, one at a time, while the budget the run left has
 * room for one; returns a note for each probe it could not afford.
 */
export async function sendLearnProbes(
  target: ContractTarget,
  report: ContractReport,
  options: {
    fetch?: typeof fetch | undefined;
    observer: RunObserver;
    now: () => number;
    tool?: Tool | undefined;
  },
): Promise<string[]> {
  if (target.tier !== 'lifecycle') return [];
  const recorder = new HttpRecorder({
    baseUrl: target.baseUrl,
    keys: { primary: target.apiKey, other: target.otherApiKey },
    requestTimeoutMs: target.requestTimeoutMs,
    fetch: options.fetch,
    tool: options.tool,
    onExchange: (exchange, sent) => options.observer.record(exchange, sent, options.now()),
  });
  let spent = report.tasksCreated + report.unconfirmed.length;
  const skipped: string[] = [];
  for (const { label, init } of probes(target)) {
    if (spent >= target.budget) {
      skipped.push(`${label}: no budget left (--budget ${target.budget + 1} would allow it)`);
      continue;
    }
    const exchange = await recorder.send(label, ...routeRequest('createVideo'), {
      ...init,
      clientRequestId: `videotask-learn-${Math.random().toString(36).slice(2)}`,
    });
    if (submissionOutcome(exchange) !== 'refused') spent++;
  }
  return skipped;
}

import type { LearnedProfile } from '../../src/profile/index.ts';
import { serviceContract } from '../../src/spec/index.ts';
import { PROBE } from '../checks/submission-probes.ts';
import { PROMPT } from '../lifecycle-tasks.ts';
import { Redactor } from '../../src/redaction/redactor.ts';
import type { ContractReport } from '../report.ts';
import { runContract, type RunOptions } from '../run-contract.ts';
import type { ContractTarget } from '../target.ts';
import { sendLearnProbes } from './learn-probes.ts';
import { learnProfile } from './learn-profile.ts';
import { mergeProfiles } from './merge-profiles.ts';
import { profileGaps } from './profile-gaps.ts';
import { RunObserver, UNKNOWN_MODEL } from './run-observer.ts';

export interface LearnOptions extends RunOptions {
  /** A profile learned before from the same deployment: the new run refines it. */
  readonly into?: LearnedProfile | undefined;
  /** The profile's name (default: the target's host). */
  readonly name?: string | undefined;
  /** Skip the learning probes (a plain contract run's observation). */
  readonly probes?: boolean | undefined;
}

export interface Learned {
  readonly report: ContractReport;
  readonly profile: LearnedProfile;
  /** What the run could not learn, and why (probes the budget did not cover). */
  readonly notes: readonly string[];
}

const REAL_NOW = () => performance.now();

/** The prompts a run sends: the profile names them, never keeps them. */
function promptsOf(target: ContractTarget): string[] {
  return [PROMPT, PROBE, ...(target.failing?.prompt === undefined ? [] : [target.failing.prompt])];
}

/** The models the run names: in a wording they are the `{model}` slot, whichever model is asked. */
function modelsOf(target: ContractTarget): string[] {
  return [
    target.model,
    target.failing?.model,
    target.family?.model,
    target.forbiddenModel,
    UNKNOWN_MODEL,
  ].filter((m): m is string => m !== undefined);
}

/**
 * A contract run that also learns (decisions/018): the same observation (`runContract`, its budget and
 * report), then the learning probes while the budget allows, read into a profile of the deployment
 * (refining `into` when given). Never prints; the profile holds no key, prompt, signed URL or task ID.
 *
 * @example
 * const { report, profile } = await runLearn({ ...target, budget: 3 });
 * writeFileSync('staging.profile.json', JSON.stringify(profile, null, 2));
 */
export async function runLearn(
  target: ContractTarget,
  options: LearnOptions = {},
): Promise<Learned> {
  const observer = new RunObserver();
  const now = options.clock === undefined ? REAL_NOW : () => options.clock!.now();
  const tool = options.tool ?? 'learn';
  const spec = options.spec ?? serviceContract();
  const report = await runContract(target, { ...options, spec, tool, onExchange: observer.record });
  const notes =
    options.probes === false
      ? []
      : await sendLearnProbes(target, report, { fetch: options.fetch, observer, now, tool });
  const learned = learnProfile(observer.seen, {
    baseUrl: target.baseUrl,
    name: options.name,
    models: modelsOf(target),
    prompts: promptsOf(target),
    forbiddenModel: target.forbiddenModel,
    redactor: new Redactor([target.apiKey, target.otherApiKey]),
    lifecycle: spec.lifecycle,
    now: new Date(),
  });
  const profile = options.into === undefined ? learned : mergeProfiles(options.into, learned);
  return { report, profile, notes: [...notes, ...profileGaps(profile)] };
}

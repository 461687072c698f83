import type { ContractTarget } from '../../../contracts/index.ts';
import { createRandom } from '../../../mocks/core/plan/random.ts';
import type { Deployment } from './deployment.ts';

/**
 * What a user gives the suite besides the deployment, drawn per seed for the conforming self-proof:
 * the run's budget and tier, and whether it has a second user's key, a prompt expected to fail and a
 * model the key may not use. The suite must raise no false alarm whatever it is given. From a stream of
 * its own, so the deployment of a seed does not change with it.
 */
export interface RunInputs {
  readonly target: Partial<ContractTarget>;
  /** In words, for a failing seed's message: `budget 2, no second key`. */
  readonly text: string;
}

export function drawInputs(deployment: Deployment): RunInputs {
  const random = createRandom(`conforming-inputs-${deployment.seed}`);
  const target: Record<string, unknown> = {};
  const text: string[] = [];
  const leaveOut = (field: keyof ContractTarget, words: string, chance: number) => {
    if (random.next() >= chance) return;
    target[field] = undefined;
    text.push(words);
  };
  leaveOut('otherApiKey', 'no second key', 0.15);
  leaveOut('failing', 'no failing prompt', 0.2);
  leaveOut('forbiddenModel', 'no forbidden model', 0.2);
  const tier = random.next();
  if (tier < 0.15) {
    Object.assign(target, { tier: 'free', budget: 0 });
    text.push('tier free');
  } else if (tier < 0.4) {
    target['budget'] = 2;
    text.push('budget 2');
  }
  return { target, text: text.join(', ') || 'the full target' };
}

/** Learning a deployment's profile from a contract run (decisions/018). */
export { runLearn, type Learned, type LearnOptions } from './run-learn.ts';
export { learnProfile, type LearnContext } from './learn-profile.ts';
export { mergeProfiles } from './merge-profiles.ts';
export { RunObserver, type Seen } from './run-observer.ts';

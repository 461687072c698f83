/**
 * Learned profiles (decisions/018): the format shared by the contract suites, which learn one from a
 * run and compare two (drift), and the mock, which serves one.
 */
export * from './profile-format.ts';
export * from './id-form.ts';
export * from './shape.ts';
export * from './submission-situation.ts';
export { MAX_PROFILE_DEPTH, PROFILE_SCHEMA, ProfileError, readProfile } from './read-profile.ts';
export * from './answer-rules.ts';
export * from './shape-bounds.ts';

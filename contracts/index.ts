/** videotask's contract suites: check any deployment against the documented behaviour. */
export { runContract, TargetError, type RunOptions } from './run-contract.ts';
export {
  DOCUMENTED_POLL,
  SECOND_FAMILY,
  plannedTasks,
  targetUsageProblem,
  type ContractTarget,
  type FailingTask,
  type FamilyTarget,
  type PollSchedule,
  type Tier,
} from './target.ts';
export type { CellCoverage, CoverageReport } from './coverage.ts';
export type { RunClock, UnconfirmedSubmission } from './run-context.ts';
export { Redactor } from '../src/redaction/redactor.ts';
export * as matrix from './matrix/index.ts';
export type { ContractReport } from './report.ts';
export { renderJUnit } from './report-junit.ts';
export { renderSummary } from './report-summary.ts';
export { writePrivateFile, writeReports } from './report-files.ts';
export { harOf, type Har, type HarEntry } from './har.ts';
export { REPORT_SCHEMA_VERSION, TOOL } from './tool.ts';
export { CHECKS } from './checks/definitions.ts';
export type { CheckResult, Outcome } from './verdicts.ts';
export * from './learn/index.ts';
export * from './drift/index.ts';
export {
  PROFILE_SCHEMA,
  ProfileError,
  readProfile,
  type LearnedProfile,
} from '../src/profile/index.ts';

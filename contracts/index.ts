/** videotask's contract suites: check any deployment against the documented behaviour. */
export { runContract, TargetError, type RunOptions } from './run-contract.ts';
export {
  DOCUMENTED_POLL,
  SECOND_FAMILY,
  type ContractTarget,
  type PollSchedule,
  type Tier,
} from './target.ts';
export { renderJUnit, renderSummary, writeReports, type ContractReport } from './report.ts';
export { CHECKS } from './checks/definitions.ts';
export type { CheckResult, Outcome } from './verdicts.ts';

/** Drift between two deployments, step by step and cell by cell (decisions/018). */
export { runDrift, type DriftReport, type DriftRun, type DriftSide } from './run-drift.ts';
export { compareProfiles, timeClass, type CompareOptions } from './compare-profiles.ts';
export type { Aspect, Difference } from './difference.ts';
export {
  driftReportJson,
  renderDriftMarkdown,
  renderDriftSummary,
  writeDriftReports,
} from './drift-report.ts';
export { driftCauses, driftSummaryLine, type DriftCause } from './drift-causes.ts';

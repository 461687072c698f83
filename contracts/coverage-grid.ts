import type { CellCoverage, CoverageReport } from './coverage.ts';
import { CALLER_LABEL, CALLERS, MATRIX_ROUTES, hasTask, TASK_STATES } from './matrix/index.ts';

const WIDTH = 12;

function mark(cell: CellCoverage | undefined): string {
  if (cell === undefined) return '';
  if (!cell.observed) return '-';
  const outcomes = Object.values(cell.rules);
  if (outcomes.includes('fail')) return 'FAIL';
  if (outcomes.includes('warn')) return 'warn';
  return 'ok';
}

/**
 * The coverage as text: the one-line count with the reasons, then a grid per route (callers × task
 * states) marking each cell `ok`, `FAIL`, `warn` (a rule failed or warned there) or `-` (not observed).
 */
export function renderCoverage(coverage: CoverageReport): string[] {
  const lines = [coverage.line];
  const find = (route: string, state: string, caller: string) =>
    coverage.cells.find((c) => c.route === route && c.state === state && c.caller === caller);
  lines.push(`  ${''.padEnd(16)}${TASK_STATES.map((s) => s.padEnd(WIDTH)).join('')}`);
  for (const route of MATRIX_ROUTES.filter(hasTask)) {
    lines.push(`  ${route.method} ${route.template}`);
    for (const caller of CALLERS) {
      const marks = TASK_STATES.map((state) => mark(find(route.id, state, caller)).padEnd(WIDTH));
      lines.push(`    ${CALLER_LABEL[caller].padEnd(14)}${marks.join('')}`.trimEnd());
    }
  }
  for (const route of MATRIX_ROUTES.filter((r) => !hasTask(r))) {
    const marks = CALLERS.map((caller) => [caller, mark(find(route.id, 'n/a', caller))] as const)
      .filter(([, m]) => m !== '')
      .map(([caller, m]) => `${CALLER_LABEL[caller]} ${m}`);
    lines.push(`  ${route.method} ${route.template}: ${marks.join(', ')}`);
  }
  lines.push(
    '  (ok: observed, every rule judged there held; FAIL/warn: one failed/warned there; -: not observed)',
  );
  return lines;
}

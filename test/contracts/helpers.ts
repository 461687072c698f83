import type { ContractReport } from '../../contracts/index.ts';

/** The failing checks of a report: `id (rule): first message`. */
export function failures(report: ContractReport): string[] {
  return report.results
    .filter((r) => r.outcome === 'fail')
    .map((r) => `${r.id} (${r.rule ?? r.basisText}): ${r.violations[0]?.message ?? ''}`);
}

import { afterAll, describe, expect, it } from 'vitest';
import { listDefects } from '../../mocks/defects/catalog.ts';
import { judgeOnConformingBase, type BaseVerdict } from '../deployments/conforming/on-a-base.ts';
import { MUTANTS } from './support/mutant-run.ts';

// The catching side of the self-proof, on the deployments the document allows (issue 31 item 2,
// decisions/042): every generated mutant (one rule broken in one cell) and every named defect, played
// on a random conforming deployment (test/deployments/conforming/) instead of the documented mock,
// is still caught with exit 1 on a check of what it breaks. The base leaves out what would leave the
// defect nothing to break or nothing to show (on-a-base.ts); a base whose run never judged what the
// defect breaks is replaced by another (at most BASE_TRIES). A survivor prints its base and the command
// that replays it. In the e2e lane: 550 whole contract runs (decisions/034).
const live = MUTANTS.flatMap((m) => {
  const defect = m.make();
  return 'equivalent' in defect ? [] : [{ ...m, defect }];
});
const verdicts: BaseVerdict[] = [];
const started = process.cpuUsage();

/**
 * Caught, and exit 1: a documented failure found is exit 1 whatever else happened in the run (issue 31
 * item 3, decisions/040), so a run whose budget went to submissions the defect wrongly accepted says
 * exit 1 too, never 2.
 */
function expectCaught(verdict: BaseVerdict): void {
  verdicts.push(verdict);
  expect(
    { killed: verdict.killed, exit: verdict.exit },
    [
      verdict.base,
      `failures were: ${verdict.failures.join(' | ') || 'none'}`,
      `reproduce: ${verdict.reproduce}`,
    ].join('\n'),
  ).toEqual({ killed: true, exit: 1 });
}

describe('on a random conforming deployment', () => {
  it.each(live.map((m) => [m.defect.name, m] as const))(
    'the mutant %s is caught',
    async (_name, m) => expectCaught(await judgeOnConformingBase(m.defect, m.cell)),
  );

  it.each(listDefects().map((d) => [d.name, d] as const))(
    'the named defect %s is caught',
    async (_name, defect) => expectCaught(await judgeOnConformingBase(defect)),
  );
});

afterAll(() => {
  const cpu = process.cpuUsage(started);
  const caught = verdicts.filter((v) => v.killed && v.exit === 1).length;
  const bases = new Set(verdicts.map((v) => v.seed)).size;
  const retried = verdicts.filter((v) => v.skipped > 0).length;
  const noTask = verdicts.filter((v) => v.killed && v.exit === 1 && v.noTaskFollowed).length;
  console.log(
    `\nmutants and named defects on conforming deployments: ${caught}/${verdicts.length} caught ` +
      `with exit 1 (${live.length} mutants, ${listDefects().length} named defects; ${bases} bases, ` +
      `${retried} moved to another base whose run judged the cell; ${noTask} with no task followed); ` +
      `${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU`,
  );
  for (const v of verdicts.filter((x) => !x.killed || x.exit !== 1))
    console.log(
      `  ${v.killed ? `EXIT ${v.exit}` : 'SURVIVED'} ${v.name} on ${v.base} (${v.reproduce})`,
    );
});

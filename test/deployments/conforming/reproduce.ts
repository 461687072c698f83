/**
 * Replays one generated conforming deployment and prints what the contract suite made of it:
 *
 *   npx tsx test/deployments/conforming/reproduce.ts SEED
 *   npx tsx test/deployments/conforming/reproduce.ts SEED --defect NAME
 *
 * With `--defect`, a named defect (`videotask mock --list-defects`) or a generated mutant
 * (`RULE@ROUTE/STATE/CALLER`, as the self-proof prints it) is played on the deployment the self-proof
 * gave it for that seed. Exit 0 when the verdict is what the self-proof expects (exit 0 without a
 * defect; the defect caught, exit 1, with one), 1 when not, 2 for a wrong argument.
 */
import { parseArgs } from 'node:util';
import { RULE_CELL_PAIRS, type Cell } from '../../../contracts/matrix/index.ts';
import { resolveDefects } from '../../../mocks/defects/catalog.ts';
import type { Defect } from '../../../mocks/defects/defect.ts';
import { mutantFor } from '../../../mocks/defects/mutants/index.ts';
import { strictRunFor, verdictOf } from '../../contracts/support/mutant-run.ts';
import { describeDeployment } from './deployment.ts';
import { baseFor } from './on-a-base.ts';
import { conformingDeployment, failuresOf, runDeployment } from './run-deployment.ts';
import { drawInputs } from './run-inputs.ts';

const USAGE = 'usage: reproduce.ts SEED [--defect NAME | --defect RULE@ROUTE/STATE/CALLER]';

/** A named defect, or the generated mutant of `rule@route/state/caller`, with its cell. */
function defectNamed(name: string): { defect: Defect; cell?: Cell } {
  const at = name.indexOf('@');
  if (at < 0) return { defect: resolveDefects([name])[0]! };
  const pair = RULE_CELL_PAIRS.find(
    ({ rule, cell }) => `${rule}@${cell.route}/${cell.state}/${cell.caller}` === name,
  );
  if (pair === undefined) throw new RangeError(`no generated mutant is named ${name}`);
  const made = mutantFor(pair.rule, pair.cell);
  if ('equivalent' in made) throw new RangeError(`${name} is equivalent: ${made.equivalent}`);
  return { defect: made, cell: pair.cell };
}

async function main(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: { defect: { type: 'string' } },
    allowPositionals: true,
  });
  const seed = Number(positionals[0]);
  if (positionals.length !== 1 || !Number.isInteger(seed) || seed < 0) {
    console.error(USAGE);
    return 2;
  }
  const played = values.defect === undefined ? undefined : defectNamed(values.defect);
  const deployment =
    played === undefined ? conformingDeployment(seed) : baseFor(played.defect, played.cell, seed);
  const strict = played !== undefined && strictRunFor(played.defect);
  // A conforming run has inputs of its own (conforming.e2e.test.ts); a defect's, the self-proof's.
  const inputs = played === undefined ? drawInputs(deployment) : undefined;
  const run = await runDeployment(deployment, {
    defects: played === undefined ? [] : [played.defect],
    target: { ...inputs?.target, strict },
  });
  console.log(describeDeployment(deployment).replaceAll(', ', '\n  '));
  if (inputs !== undefined) console.log(`run with ${inputs.text}`);
  console.log(`exit ${run.exit.code}${run.exit.why === undefined ? '' : `: ${run.exit.why}`}`);
  for (const line of failuresOf(run.report)) console.log(`FAIL ${line}`);
  for (const r of run.report.results.filter((x) => x.outcome === 'warn'))
    console.log(`WARN ${r.id} (${r.basisText}): ${r.violations[0]?.message ?? ''}`);
  if (played === undefined) return run.exit.code === 0 ? 0 : 1;
  const verdict = verdictOf(played.defect, run.report, strict, played.cell);
  console.log(
    verdict.killed
      ? `caught by ${verdict.caughtBy.join(', ')}`
      : `NOT caught: ${played.defect.name}`,
  );
  return verdict.killed && run.exit.code === 1 ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 2;
  },
);

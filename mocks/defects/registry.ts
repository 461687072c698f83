import type { Defect } from './defect.ts';
import { DEFECTS } from './catalog.ts';

const BY_NAME = new Map(DEFECTS.map((d) => [d.name, d]));

/** The defects named (or given as objects), in the order given. Throws naming an unknown one. */
export function resolveDefects(names: readonly (string | Defect)[]): Defect[] {
  return names.map((name) => {
    if (typeof name !== 'string') return name;
    const defect = BY_NAME.get(name);
    if (defect === undefined)
      throw new RangeError(
        `Unknown defect "${name}": run \`videotask mock --list-defects\` to see them`,
      );
    return defect;
  });
}

export function listDefects(): readonly Defect[] {
  return DEFECTS;
}

import type { Defect } from './defect.ts';
import { DEFECTS } from './catalog.ts';

const BY_NAME = new Map(DEFECTS.map((d) => [d.name, d]));

/** The defects named, in the order given. Throws naming an unknown one and listing the known. */
export function resolveDefects(names: readonly string[]): Defect[] {
  return names.map((name) => {
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

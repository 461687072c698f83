import type { Defect } from './defect.ts';
import { ACCESS_DEFECTS } from './access.ts';
import { CONTENT_DEFECTS } from './content.ts';
import { DOWNLOAD_DEFECTS } from './download.ts';
import { GATEWAY_HABIT_DEFECTS } from './gateway-habits.ts';
import { LIFECYCLE_DEFECTS } from './lifecycle.ts';
import { NATIVE_DEFECTS } from './native.ts';
import { ROUTE_DEFECTS } from './routes.ts';
import { TASK_OBJECT_DEFECTS } from './task-object.ts';
import { WRAPPER_DEFECTS } from './wrapper.ts';

/** Every defect `--defect NAME` can play, grouped by the part of the contract it breaks. */
export const DEFECTS: readonly Defect[] = [
  ...TASK_OBJECT_DEFECTS,
  ...ROUTE_DEFECTS,
  ...LIFECYCLE_DEFECTS,
  ...WRAPPER_DEFECTS,
  ...CONTENT_DEFECTS,
  ...ACCESS_DEFECTS,
  ...GATEWAY_HABIT_DEFECTS,
  ...NATIVE_DEFECTS,
  ...DOWNLOAD_DEFECTS,
];

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

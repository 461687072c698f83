import type { Defect } from './defect.ts';
import { ACCESS_DEFECTS } from './access.ts';
import { CONTENT_DEFECTS } from './content.ts';
import { LIFECYCLE_DEFECTS } from './lifecycle.ts';
import { TASK_OBJECT_DEFECTS } from './task-object.ts';
import { WRAPPER_DEFECTS } from './wrapper.ts';

export { jsonOf, withJson } from './support.ts';

/** Every defect `--defect NAME` can play, grouped by the part of the contract it breaks. */
export const DEFECTS: readonly Defect[] = [
  ...TASK_OBJECT_DEFECTS,
  ...LIFECYCLE_DEFECTS,
  ...WRAPPER_DEFECTS,
  ...CONTENT_DEFECTS,
  ...ACCESS_DEFECTS,
];

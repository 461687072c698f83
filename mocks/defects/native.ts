import type { Defect } from './defect.ts';
import { nativeOnly } from './mutants/native-mutations.ts';
import { rewriteTaskAnswer } from './support.ts';

/** Defects of the second family's native path (§4.5), as a plugin binding gone wrong would show them. */
export const NATIVE_DEFECTS: readonly Defect[] = [
  {
    name: 'native-openai-statuses',
    description:
      "the native query answers the OpenAI form's status values " +
      '("in_progress", "completed") instead of the upstream\'s',
    breaks: ['native-status-mapping', 'native-shape'],
    after: rewriteTaskAnswer(['getPluginTask'], (body, { snap }) => ({
      ...body,
      status: snap.status,
    })),
  },
  {
    name: 'native-mixed-accepted',
    description:
      "the native path accepts a body that mixes in the OpenAI form's fields (prompt, metadata), ignoring them",
    breaks: ['native-formats-not-mixed'],
    before: (request, { operationId }) =>
      operationId === 'createPluginTask' ? nativeOnly(request) : request,
  },
];

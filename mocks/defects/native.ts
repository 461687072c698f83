import type { Defect } from './defect.ts';
import { errorResponse } from '../core/http/errors.ts';
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
  {
    name: 'native-path-missing',
    description:
      'the native path answers 404 (no such route) to a valid submission once the family is bound: ' +
      'a plugin declared but not routed (§4.5)',
    breaks: [],
    checks: ['native.accepts'],
    statements: ['4.5-native-shape-not-shown'],
    after(request, response, { operationId }) {
      if (operationId !== 'createPluginTask' || response.status !== 200) return response;
      return errorResponse('route_not_found', { method: request.method, path: request.path });
    },
  },
];

import { errorResponse } from '../core/http/errors.ts';
import type { Defect } from './defect.ts';

/** Defects of the routes §4 lists: a deployment without one of the two submit paths. */

/** A deployment that answers a valid submission on `operation`'s path with its own 404. */
function pathMissing(operation: string, path: string, statement: string): Defect {
  return {
    name: `${path.split('/').at(-1)}-path-missing`,
    description: `POST ${path} answers 404 (no such route) to a valid submission: a gateway without it (§4)`,
    breaks: [],
    checks: ['submission.both-paths'],
    statements: [statement],
    after(request, response, { operationId }) {
      if (operationId !== operation || response.status !== 200) return response;
      return errorResponse('route_not_found', { method: request.method, path: request.path });
    },
  };
}

export const ROUTE_DEFECTS: readonly Defect[] = [
  pathMissing('createVideoGeneration', '/v1/video/generations', '4-submit-generations'),
  pathMissing('createVideo', '/v1/videos', '4-submit-videos'),
];

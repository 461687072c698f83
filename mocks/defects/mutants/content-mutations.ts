import type { CoreResponse } from '../../core/http/http-types.ts';
import type { Mutation } from './mutation.ts';

/** Mutations of a completed task's download beyond its signature: its length, its ranges, its HEAD. */

const bytesOf = (response: CoreResponse): Uint8Array | undefined =>
  response.body instanceof Uint8Array ? response.body : undefined;

const withHeaders = (response: CoreResponse, headers: Record<string, string>): CoreResponse => ({
  ...response,
  headers: { ...response.headers, ...headers },
});

/** A `Content-Length` that is not the number of bytes sent. */
export const wrongLength: Mutation = {
  does: 'announces a Content-Length 7 bytes longer than the body it sends',
  after(_request, response) {
    const bytes = bytesOf(response);
    if (bytes === undefined || response.status >= 300) return response;
    return withHeaders(response, { 'content-length': String(bytes.byteLength + 7) });
  },
};

/** A 206 whose bytes are not those of the range asked: one byte in the middle changed. */
export const corruptRange: Mutation = {
  does: 'serves a range (206) with one byte changed',
  after(request, response) {
    const bytes = bytesOf(response);
    if (bytes === undefined || response.status !== 206 || request.headers['range'] === undefined)
      return response;
    const changed = bytes.slice();
    const middle = Math.floor(changed.byteLength / 2);
    changed[middle] = (changed[middle]! + 1) % 256;
    return { ...response, body: changed };
  },
};

/** A HEAD that announces another length than its GET. */
export const headDisagrees: Mutation = {
  does: 'answers HEAD with a Content-Length 100 bytes more than the GET sends',
  after(request, response) {
    const length = Number(response.headers['content-length']);
    if (request.method !== 'HEAD' || response.status >= 300 || !Number.isFinite(length))
      return response;
    return withHeaders(response, { 'content-length': String(length + 100) });
  },
};

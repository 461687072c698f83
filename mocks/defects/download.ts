import type { Defect } from './defect.ts';

/**
 * Defects in how a download's bytes travel rather than in what they are: a range that is not the
 * range asked. An assumption (the document is silent on Range), so the suite warns and --strict fails.
 */
export const DOWNLOAD_DEFECTS: readonly Defect[] = [
  {
    name: 'range-from-start',
    description:
      'a Range request gets 206 with the right Content-Range, but the bytes always from the start of the video',
    breaks: ['content-range-reassembles'],
    after(request, response, { state }) {
      if (response.status !== 206 || request.headers['range'] === undefined) return response;
      const length = response.body instanceof Uint8Array ? response.body.byteLength : 0;
      return { ...response, body: state.media.bytes.subarray(0, length) };
    },
  },
];

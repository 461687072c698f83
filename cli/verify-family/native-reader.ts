import type { VideoTaskClient } from '../../src/client/index.ts';

/** How much of a refused answer's body the error quotes. */
const QUOTED_CHARS = 200;

/**
 * One GET of the plugin's native status path (§4.5; its shape is not shown, so it is only searched for
 * usage fields).
 */
export function nativeReader(client: VideoTaskClient, pluginName: string, apiKey: string) {
  return async (taskId: string, signal: AbortSignal): Promise<unknown> => {
    const path = `/${pluginName}/api/v3/contents/generations/tasks/${encodeURIComponent(taskId)}`;
    const response = await fetch(`${client.baseUrl}${path}`, {
      headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' },
      signal: AbortSignal.any([signal, AbortSignal.timeout(client.requestTimeoutMs)]),
    });
    const text = await response.text();
    if (!response.ok)
      throw new Error(
        `GET ${path} answered HTTP ${response.status}: ${text.slice(0, QUOTED_CHARS)}`,
      );
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new Error(`GET ${path} answered something that is not JSON`);
    }
  };
}

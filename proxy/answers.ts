// What the proxy reads of the requests and answers it passes on, and the `unknown` fault's rewrite.
import type { Answer } from './forward.ts';
import type { ApiRoute } from './routes.ts';
import {
  fromWrapperStatus,
  serviceContract,
  toNativeStatus,
  toWrapperStatus,
  type VideoStatus,
} from '../src/spec/index.ts';

const { lifecycle } = serviceContract();

/** A JSON object's text parsed, or undefined (not JSON, or not an object). */
export function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export const documented = (status: unknown): VideoStatus | undefined =>
  lifecycle.states.values.includes(status as VideoStatus) ? (status as VideoStatus) : undefined;

/** The state a query's answer shows, on its own form (§2.2, §2.3, §4.5). */
export function toldBy(route: ApiRoute, json: unknown): VideoStatus | undefined {
  const body = json as { status?: unknown; data?: { status?: unknown } | null } | undefined;
  if (route.id === 'getVideo') return documented(body?.status);
  if (route.id === 'getVideoGeneration') {
    const wrapped = body?.data?.status;
    return typeof wrapped === 'string' ? fromWrapperStatus(lifecycle, wrapped) : undefined;
  }
  if (route.id === 'getPluginTask')
    return lifecycle.pluginMapping.rows.find((r) => r.native.includes(body?.status as never))
      ?.openai;
  return undefined;
}

/** A held 2xx answer of a query, showing the task `unknown` on its own form; undefined when it is not one. */
export function asUnknown(route: ApiRoute, answer: Answer, json: unknown): Buffer | undefined {
  if (answer.status < 200 || answer.status >= 300 || json === null || typeof json !== 'object')
    return undefined;
  const body = json as Record<string, unknown>;
  if (route.id === 'getVideo') return Buffer.from(JSON.stringify({ ...body, status: 'unknown' }));
  if (route.id === 'getPluginTask')
    return Buffer.from(JSON.stringify({ ...body, status: toNativeStatus(lifecycle, 'unknown') }));
  const data = body['data'];
  if (route.id !== 'getVideoGeneration' || data === null || typeof data !== 'object')
    return undefined;
  return Buffer.from(
    JSON.stringify({ ...body, data: { ...data, status: toWrapperStatus(lifecycle, 'unknown') } }),
  );
}

/** A header field's value, repeated values joined. */
export function header(
  holder: { readonly headers: Readonly<Record<string, string | string[] | undefined>> },
  name: string,
): string | undefined {
  const value = holder.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

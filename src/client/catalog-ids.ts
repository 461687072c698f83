/**
 * The model IDs a `/v1/models` answer lists: `data[].id` in the gateway's shape; in any other JSON
 * shape ("response shape of /v1/models: not shown", §4), every string it holds at any depth, so a
 * catalog that lists a model in its own way still lists it (§9 step 3). `undefined` for no JSON.
 *
 * @example
 * catalogModelIds({ data: [{ id: 'video-pro-v1' }] }); // ['video-pro-v1']
 * catalogModelIds({ models: [{ name: 'video-pro-v1' }] }); // ['video-pro-v1']
 */
export function catalogModelIds(json: unknown): string[] | undefined {
  if (json === undefined) return undefined;
  const data =
    typeof json === 'object' && json !== null ? (json as { data?: unknown }).data : undefined;
  if (Array.isArray(data))
    return data.map((m: { id?: unknown } | null) => m?.id).filter((id) => typeof id === 'string');
  return stringsIn(json);
}

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap(stringsIn);
}

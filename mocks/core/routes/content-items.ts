/**
 * `metadata.content` of the second family (§2.1): reference image or video URLs. Multipart file upload
 * is not accepted; URLs must be readable by the upstream (so `http(s)` only, no `data:` or `blob:`);
 * `asset://` references are not passed to this family. Returns the first problem, naming the item.
 */
export function checkContentItems(content: unknown, where: string): string | undefined {
  if (content === undefined) return undefined;
  if (!Array.isArray(content))
    return `${where} must be a list of {type, image_url|video_url: {url}} items`;
  for (let i = 0; i < content.length; i++) {
    const item = content[i] as Record<string, unknown> | null;
    const at = `${where}[${i}]`;
    if (item === null || typeof item !== 'object') return `${at} must be an object`;
    const type = item['type'];
    if (type === 'text') {
      if (typeof item['text'] !== 'string') return `${at}.text must be a string`;
      continue;
    }
    if (type !== 'image_url' && type !== 'video_url')
      return `${at}.type must be image_url, video_url or text, got ${JSON.stringify(type)}`;
    const problem = urlProblem((item[type] as { url?: unknown } | undefined)?.url, `${at}.${type}`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** An item's reference URL: an http(s) URL the upstream can read (§2.1). */
function urlProblem(url: unknown, at: string): string | undefined {
  if (typeof url !== 'string' || url === '') return `${at}.url must be a URL`;
  if (/^asset:\/\//i.test(url))
    return (
      `${at}.url is an asset:// reference, which this family's ` +
      `upstream does not accept (§2.1): pass an https URL`
    );
  if (/^(data|blob|file):/i.test(url))
    return (
      `${at}.url must be an http(s) URL the upstream can read, not an ` +
      `inline or local file (§2.1: multipart upload is not accepted)`
    );
  if (!/^https?:\/\/[^\s/]+/i.test(url))
    return `${at}.url must be an http(s) URL, got ${JSON.stringify(url.slice(0, 80))}`;
  return undefined;
}

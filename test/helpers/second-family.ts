// Requests for the second model family (§1, §4.5): its native path, and bodies in both forms.
import { coreClient } from './core-client.ts';

export const NATIVE = '/alt-video/api/v3/contents/generations/tasks';
export const nativeBody = (model = 'alt-video-v2', extra: Record<string, unknown> = {}) => ({
  model,
  content: [
    { type: 'text', text: 'a paper boat' },
    { type: 'image_url', image_url: { url: 'https://images.example.com/boat.png' } },
  ],
  duration: 5,
  ratio: '16:9',
  ...extra,
});
export const openaiBody = (model = 'alt-video-v2', metadata: Record<string, unknown> = {}) => ({
  model,
  prompt: 'a paper boat',
  metadata: { duration: 5, ...metadata },
});
/** A task as the native path answers it. */
export type Native = {
  id: string;
  status: string;
  content?: { video_url: string };
  usage?: { total_tokens: number };
  error?: { code: string };
};

/** A core client with the second family bound (a type-61 plugin channel). */
export const bound = () => coreClient({ familyBound: true });

// The answer bodies tests read, typed loosely enough for every state (fields a state may omit are optional).
import type { VideoStatus } from '../../src/spec/index.ts';

/** A task as the OpenAI-form endpoints answer it (`GET /v1/videos/{id}`, submissions). */
export type TaskBody = {
  id: string;
  task_id?: string;
  object: string;
  status: VideoStatus;
  progress: number;
  model: string;
  created_at?: number;
  completed_at?: number;
  metadata?: { url: string };
  error?: { code: string; message: string };
};

/** A task in the wrapper form (`GET /v1/video/generations/{id}`). */
export type WrapperBody = {
  code: string;
  message: string;
  data: {
    task_id: string;
    status: string;
    progress: string;
    result_url?: string;
    fail_reason: string;
    platform: string;
    created_at: number;
    updated_at: number;
  };
};

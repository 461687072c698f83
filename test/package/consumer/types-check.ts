// Type-checked by the consumer's own tsc with skipLibCheck: false, under two module settings: every
// public entry, the generated spec types and the msw handler types must resolve and agree.
import { setupServer } from 'msw/node';
import type { HttpHandler } from 'msw';
import { ApiError, VideoTaskClient, pollTask, type components, type TaskJournal } from 'videotask';
import {
  DOCUMENTED_POLL,
  runContract,
  type ContractReport,
  type ContractTarget,
} from 'videotask/contracts';
import {
  createHandlers,
  createMockService,
  startMockServer,
  type MockService,
  type RunningMockServer,
} from 'videotask/mocks';
import * as neutral from 'videotask/mocks/neutral';
import { downloadContent, FileJournal, resumeJournal, type DownloadResult } from 'videotask/node';
import { serviceContract, type Lifecycle } from 'videotask/spec';

type VideoTask = components['schemas']['VideoTask'];

const service: MockService = createMockService({ clock: { mode: 'manual' }, seed: 1 });
const handlers: HttpHandler[] = createHandlers(service, { baseUrl: 'https://video.example' });
export const server = setupServer(...handlers);
export const anywhere: HttpHandler[] = neutral.createHandlers(
  neutral.createMockService({ speed: 50 }),
);
export const client = new VideoTaskClient({ baseUrl: 'http://127.0.0.1:4010', apiKey: 'sk-x' });

export async function finished(id: string): Promise<VideoTask['status']> {
  const { task } = await pollTask((taskId, signal) => client.getVideo(taskId, { signal }), id);
  return task.status;
}

export async function report(): Promise<ContractReport> {
  const running: RunningMockServer = await startMockServer({ port: 0, service });
  const target: ContractTarget = {
    baseUrl: running.url,
    apiKey: 'sk-mock-alice',
    model: 'video-pro-v1',
    tier: 'free',
    budget: 0,
    strict: true,
    poll: DOCUMENTED_POLL,
    requestTimeoutMs: 5_000,
  };
  try {
    return await runContract(target);
  } finally {
    await running.close();
  }
}

export function statusOf(error: unknown): number | undefined {
  return error instanceof ApiError ? error.status : undefined;
}

export async function polled(id: string): Promise<VideoTask['status']> {
  return (await client.poll(id, { timeoutMs: 60_000 })).task.status;
}

export function download(id: string): Promise<DownloadResult> {
  return downloadContent(client, id, { to: 'video.mp4' });
}

export async function resumed(): Promise<number> {
  const journal: TaskJournal = new FileJournal('tasks.jsonl');
  const summary = await resumeJournal(journal, (id, signal) => client.getVideo(id, { signal }));
  return summary.results.length;
}

export const lifecycle: Lifecycle = serviceContract().lifecycle;

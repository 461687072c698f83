// Issue 34 item 2: the contract suite's checks judging exchanges something else recorded (a proxy's
// traffic), contracts/traffic: the cells, a task's sequence over its looks, ownership where two
// callers meet one task, a polling loop's repeats judged as the first, and memory bounded whatever
// the traffic (tasks, violations).
import { describe, expect, it } from 'vitest';
import { TrafficJudge, type TrafficExchange } from '../../contracts/traffic/traffic-judge.ts';
import type { RouteId } from '../../contracts/matrix/index.ts';

const ALICE = 'sk-traffic-alice-0123456789';
const BOB = 'sk-traffic-bob-0123456789ab';
const encoder = new TextEncoder();
let index = 0;

/** One exchange as a proxy records it: a JSON answer, its bytes kept whole. */
function seen(
  route: RouteId,
  request: { key: string; taskId?: string; method?: string; path: string; body?: unknown },
  answer: { status: number; json: unknown },
): TrafficExchange {
  const text = JSON.stringify(answer.json);
  const head = encoder.encode(text);
  return {
    exchange: {
      index: index++,
      label: 'client',
      method: request.method ?? 'GET',
      path: request.path,
      sent: { headers: {} },
      startedAt: Date.now(),
      waitMs: 1,
      ms: 2,
      status: answer.status,
      contentType: 'application/json',
      headers: { 'content-type': 'application/json', date: new Date().toUTCString() },
      json: answer.json,
      head,
      bytes: head.byteLength,
      excerpt: text.slice(0, 200),
      redirected: false,
    },
    route,
    taskId: request.taskId,
    key: request.key,
    body: request.body,
    ranged: false,
  };
}

const now = Math.floor(Date.now() / 1000);
const task = (id: string, status: string, progress: number) => ({
  id,
  task_id: id,
  object: 'video',
  model: 'video-pro-v1',
  status,
  progress,
  created_at: now,
  ...(status === 'completed'
    ? { completed_at: now, metadata: { url: 'https://cdn.example.com/v.mp4' } }
    : {}),
});
const submit = (key: string, id: string) =>
  seen(
    'createVideo',
    { key, method: 'POST', path: '/v1/videos', body: { model: 'video-pro-v1', prompt: 'a cat' } },
    { status: 200, json: task(id, 'queued', 0) },
  );
const look = (key: string, id: string, status: string, progress: number, code = 200) =>
  seen(
    'getVideo',
    { key, taskId: id, path: `/v1/videos/${id}` },
    {
      status: code,
      json: code === 200 ? task(id, status, progress) : { error: { message: 'no', type: 'x' } },
    },
  );

const judgeOf = (limits = {}, now?: () => number) =>
  new TrafficJudge({ origin: 'https://staging.example.com', strict: false, limits, now });
const result = (j: TrafficJudge, id: string) => j.report().results.find((r) => r.id === id)!;

describe('the contract suite judging traffic it did not make', () => {
  it("judges a task over its looks, counting a polling loop's repeats as judged", () => {
    const j = judgeOf();
    j.judge(submit(ALICE, 'task_a'));
    for (let i = 0; i < 5; i++) j.judge(look(ALICE, 'task_a', 'in_progress', 40));
    j.judge(look(ALICE, 'task_a', 'completed', 100));
    const report = j.report();
    expect(report.ok).toBe(true);
    expect(report.tasksCreated).toBe(0);
    expect(result(j, 'task.object-is-video').passes).toBe(7);
    expect(result(j, 'sequence.legal-transition').passes).toBe(5);
    const observed = report.coverage.cells
      .filter((c) => c.observed)
      .map((c) => `${c.route}/${c.state}`);
    expect(observed).toEqual(
      expect.arrayContaining(['getVideo/in_progress', 'getVideo/completed']),
    );
  });

  it("counts a polling loop's repeats exactly, whenever the report is read and whatever ends them", () => {
    const j = judgeOf({ maxTasks: 2 });
    const passes = () => result(j, 'task.object-is-video').passes;
    j.judge(submit(ALICE, 'task_r'));
    for (let i = 0; i < 4; i++) j.judge(look(ALICE, 'task_r', 'in_progress', 40));
    expect(passes()).toBe(5); // read in the middle of the loop
    expect(passes()).toBe(5); // and again: nothing counted twice
    for (let i = 0; i < 3; i++) j.judge(look(ALICE, 'task_r', 'in_progress', 40));
    j.judge(look(ALICE, 'task_r', 'in_progress', 50)); // a new answer ends the repeats
    for (let i = 0; i < 3; i++) j.judge(look(ALICE, 'task_r', 'in_progress', 50));
    j.judge(submit(ALICE, 'task_s'));
    j.judge(submit(ALICE, 'task_t')); // task_r forgotten (--max-tasks 2) with repeats not yet counted
    expect(j.memory()).toMatchObject({ tasks: 2, tasksEvicted: 1 });
    expect(passes()).toBe(14);
    expect(result(j, 'sequence.legal-transition').passes).toBe(10); // each look after the first
  });

  it('fails a repeated look that breaks a rule, as the first would have been', () => {
    const j = judgeOf();
    j.judge(submit(ALICE, 'task_b'));
    for (let i = 0; i < 3; i++) j.judge(look(ALICE, 'task_b', 'in_progress', 60));
    j.judge(look(ALICE, 'task_b', 'in_progress', 20));
    j.judge(look(ALICE, 'task_b', 'in_progress', 20));
    const monotonic = result(j, 'sequence.progress-monotonic');
    expect(monotonic.violations).toHaveLength(1);
    expect(monotonic.violations[0]!.message).toBe('progress went from 60 to 20');
    expect(monotonic.violations[0]!.evidence?.curl).toContain(
      'https://staging.example.com/v1/videos/task_b',
    );
  });

  it("judges another caller's read of a task by §5 ownership", () => {
    const j = judgeOf();
    j.judge(submit(ALICE, 'task_c'));
    j.judge(look(BOB, 'task_c', 'queued', 0));
    const owner = result(j, 'owner.status');
    expect(owner.outcome).toBe('fail');
    expect(owner.violations[0]!.evidence?.request).toBe('GET /v1/videos/task_c (other key)');
    const refused = judgeOf();
    refused.judge(submit(ALICE, 'task_d'));
    refused.judge(look(BOB, 'task_d', 'queued', 0, 404));
    expect(result(refused, 'owner.status').outcome).toBe('pass');
    expect(JSON.stringify(refused.report())).not.toContain(BOB.slice(3, 15));
  });

  it('keeps its memory bounded: tasks forgotten past the cap, violations counted past the limit', () => {
    const j = judgeOf({ maxTasks: 100, maxViolations: 5 });
    for (let i = 0; i < 600; i++) {
      j.judge(submit(ALICE, `task_${i}`));
      j.judge(look(ALICE, `task_${i}`, 'in_progress', 150));
    }
    expect(j.memory()).toMatchObject({ tasks: 100, tasksEvicted: 500 });
    const range = result(j, 'task.progress-range');
    expect(range.violations).toHaveLength(5);
    expect(j.report().notes.join('\n')).toContain('task.progress-range 595');
  });

  it('forgets a caller unseen for the idle time to judge a new one, and counts the rest', () => {
    let now = 0;
    const j = judgeOf({ maxCallers: 2, idleMs: 1_000 }, () => now);
    j.judge(submit(ALICE, 'task_x'));
    j.judge(submit(BOB, 'task_y'));
    now = 500;
    j.judge(submit('sk-traffic-carol-0123456', 'task_z')); // no room, nobody idle: counted only
    expect(j.memory()).toMatchObject({ callers: 2, callersForgotten: 0 });
    expect(j.report().notes.join('\n')).toContain(
      '1 exchange(s) of callers beyond the 2 judged at once',
    );
    now = 2_000;
    j.judge(submit('sk-traffic-carol-0123456', 'task_z'));
    expect(j.memory()).toMatchObject({ callers: 2, callersForgotten: 1 });
    expect(JSON.stringify(j.report())).not.toContain('carol-0123');
  });
});

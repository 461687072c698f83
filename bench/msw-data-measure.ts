// The measurement behind bench/msw-data.ts: one store size, each lookup timed in batches.
import { factory, primaryKey } from '@mswjs/data';
import { median } from './lib/report.ts';

interface Task {
  id: string;
  owner: string;
}

const idOf = (i: number): string => `task_${i.toString(36).padStart(8, '0')}`;
const ownerOf = (i: number): string => `owner_${i.toString(36).padStart(8, '0')}`;

/** A deterministic pseudo-random sequence of record indexes (xorshift32), the same for every case. */
function indexes(count: number, size: number): Uint32Array {
  const out = new Uint32Array(count);
  let x = 2463534242;
  for (let i = 0; i < count; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x % size;
  }
  return out;
}

/**
 * Microseconds per call of `lookup`, as the median of `batches` batches that each run for at least
 * `budgetMs` (and at least 3 calls). `lookup` returns the found id, which is checked.
 */
function timePerCall(
  ids: readonly string[],
  budgetMs: number,
  batches: number,
  lookup: (i: number) => string | undefined,
): number {
  const keys = indexes(1 << 16, ids.length);
  let k = 0;
  const check = (i: number): void => {
    const found = lookup(i);
    if (found === undefined || found !== ids[i])
      throw new Error(`lookup of record ${i} returned ${String(found)}`);
  };
  // Warm-up: a tenth of a batch.
  const warmEnd = performance.now() + budgetMs / 10;
  for (let n = 0; n < 3 || performance.now() < warmEnd; n++) check(keys[k++ & 0xffff] ?? 0);
  const perCall: number[] = [];
  for (let b = 0; b < batches; b++) {
    let calls = 0;
    const t0 = performance.now();
    let now = t0;
    // Run in chunks so the clock is read rarely for the fast cases.
    let chunk = 1;
    while (calls < 3 || now - t0 < budgetMs) {
      for (let c = 0; c < chunk; c++) check(keys[k++ & 0xffff] ?? 0);
      calls += chunk;
      now = performance.now();
      if (now - t0 < budgetMs / 20 && chunk < 1 << 16) chunk *= 2;
    }
    perCall.push(((now - t0) * 1000) / calls);
  }
  return median(perCall);
}

export interface SizeResult {
  records: number;
  createMs: number;
  createUsPerRecord: number;
  usPerLookup: {
    findFirstById: number;
    findFirstByOwner: number;
    mapGet: number;
    arrayFindByOwner: number;
  };
  nsPerRecordScanned: { findFirstById: number; findFirstByOwner: number };
  findFirstByIdOverMapGet: number;
  /** CPU used by other processes while this size was measured, in % of one core (noise; 2 cores). */
  otherCpuPercent?: number;
}

export function measureSize(size: number, budgetMs: number, batches: number): SizeResult {
  // The keys are built once: every lookup below gets a ready string, as a request handler would.
  const tasks: Task[] = Array.from({ length: size }, (_, i) => ({
    id: idOf(i),
    owner: ownerOf(i),
  }));
  const ids = tasks.map((t) => t.id);
  const owners = tasks.map((t) => t.owner);
  const db = factory({ task: { id: primaryKey(String), owner: String } });
  const t0 = performance.now();
  for (const task of tasks) db.task.create({ id: task.id, owner: task.owner });
  const createMs = performance.now() - t0;
  const map = new Map<string, Task>(tasks.map((t) => [t.id, { ...t }]));
  const array: Task[] = tasks.map((t) => ({ ...t }));
  if (db.task.count() !== size)
    throw new Error(`expected ${size} records, found ${db.task.count()}`);

  const findFirstById = timePerCall(
    ids,
    budgetMs,
    batches,
    (i) => db.task.findFirst({ where: { id: { equals: ids[i] ?? '' } } })?.id,
  );
  const findFirstByOwner = timePerCall(
    ids,
    budgetMs,
    batches,
    (i) => db.task.findFirst({ where: { owner: { equals: owners[i] ?? '' } } })?.id,
  );
  const mapGet = timePerCall(ids, budgetMs, batches, (i) => map.get(ids[i] ?? '')?.id);
  const arrayFindByOwner = timePerCall(ids, budgetMs, batches, (i) => {
    const owner = owners[i];
    return array.find((t) => t.owner === owner)?.id;
  });
  return {
    records: size,
    createMs,
    createUsPerRecord: (createMs * 1000) / size,
    usPerLookup: { findFirstById, findFirstByOwner, mapGet, arrayFindByOwner },
    nsPerRecordScanned: {
      findFirstById: (findFirstById * 1000) / size,
      findFirstByOwner: (findFirstByOwner * 1000) / size,
    },
    findFirstByIdOverMapGet: findFirstById / mapGet,
  };
}

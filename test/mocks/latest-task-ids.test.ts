// What a cluster primary hands a starting worker so that it never draws a task ID made before it at the
// clock's current instant (decisions/010, 016): the IDs of the latest instant, in the worker's share.
import { describe, expect, it } from 'vitest';
import {
  LatestTaskIds,
  RESTORE_WINDOW,
  latestOf,
} from '../../mocks/node/cluster/latest-task-ids.ts';

const share = (index: number, of: number) => ({ index, of });
const WHOLE = share(0, 1);

describe('the latest task IDs of a cluster', () => {
  it('keeps those of the latest instant and generation, and gives each share its own', () => {
    const latest = new LatestTaskIds();
    latest.note('a', { createdAt: 10, draw: 0 }, 0);
    latest.note('b', { createdAt: 20, draw: 3 }, 0);
    latest.note('c', { createdAt: 20, draw: 4 }, 0);
    latest.note('late', { createdAt: 15, draw: 6 }, 0); // heard of late: never drawn again
    expect(latest.takenIn(share(0, 3), 20, 0)).toEqual(['b']);
    expect(latest.takenIn(share(1, 3), 20, 0)).toEqual(['c']);
    expect(latest.takenIn(WHOLE, 20, 0)).toEqual(['b', 'c']);
    expect(latest.takenIn(WHOLE, 21, 0)).toEqual([]); // the clock moved on
    expect(latest.takenIn(WHOLE, 20, 1)).toEqual([]); // a reset: other tags
    latest.note('d', { createdAt: 20, draw: 5 }, 1);
    expect(latest.takenIn(WHOLE, 20, 1)).toEqual(['d']);
  });

  it('reads the restored listing back from its end, past older IDs heard of late', () => {
    const instants = new Map<string, number>();
    const ids: string[] = [];
    const add = (id: string, at: number) => {
      instants.set(id, at);
      ids.push(id);
    };
    for (let i = 0; i < RESTORE_WINDOW * 2; i++) add(`old-${i}`, 5);
    add('now-1', 9);
    for (let i = 0; i < RESTORE_WINDOW - 1; i++) add(`late-${i}`, 8);
    add('now-2', 9);
    add('late', 8);
    let read = 0;
    const mintedAt = (id: string) => {
      read++;
      return { createdAt: instants.get(id)!, draw: 0 };
    };
    expect(latestOf(ids, mintedAt, 9, 0).takenIn(WHOLE, 9, 0)).toEqual(['now-1', 'now-2']);
    expect(read).toBe(2 * RESTORE_WINDOW + 2); // not the older part of the listing
  });
});

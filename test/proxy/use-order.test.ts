// The proxy's bounded tables (its tasks and callers, decisions/062) forget the least recently used
// first: src/use-order.ts keeps that order, and using the entry used last again moves nothing.
import { describe, expect, it } from 'vitest';
import { UseOrder } from '../../src/use-order.ts';

const order = (map: UseOrder<string, number>) => [...map].map(([key, value]) => `${key}=${value}`);

describe('a map in the order its entries were last used', () => {
  it('moves an entry used again to the back, and keeps its value', () => {
    const map = new UseOrder<string, number>();
    for (const [i, key] of ['a', 'b', 'c'].entries()) map.use(key, i);
    map.use('a', 9);
    expect(order(map)).toEqual(['b=1', 'c=2', 'a=9']);
    expect(map.oldest()).toEqual(['b', 1]);
    // The entry used last, used again: its value changes, nothing moves.
    map.use('a', 10);
    expect(order(map)).toEqual(['b=1', 'c=2', 'a=10']);
    expect(map.size).toBe(3);
  });

  it('forgets which was used last when it is deleted, so the next use still reorders', () => {
    const map = new UseOrder<string, number>();
    map.use('a', 1);
    map.use('b', 2);
    map.delete('b');
    map.use('b', 3);
    map.use('a', 4);
    expect(order(map)).toEqual(['b=3', 'a=4']);
    map.delete('a');
    map.use('c', 5);
    map.use('b', 6);
    expect(order(map)).toEqual(['c=5', 'b=6']);
    expect([...map.keys()]).toEqual(['c', 'b']);
    expect(map.get('c')).toBe(5);
    expect(map.has('a')).toBe(false);
  });
});

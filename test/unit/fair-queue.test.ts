import { describe, expect, it } from 'vitest';
import { FairQueue } from '../../lambdas/adapters/local/fair-queue.js';

describe('FairQueue', () => {
  it('serves owners in turn, each in the order it queued', () => {
    const queue = new FairQueue<string>();
    for (const item of ['a1', 'a2', 'a3']) queue.push('a', item);
    queue.push('b', 'b1');
    queue.push('c', 'c1');
    queue.push('b', 'b2');
    expect(queue.size).toBe(6);
    const order = Array.from({ length: 6 }, () => queue.shift());
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
    expect(queue.shift()).toBeUndefined();
    expect(queue.size).toBe(0);
  });

  it('an owner that comes back after its queue emptied waits its turn behind those still queued', () => {
    const queue = new FairQueue<string>();
    queue.push('a', 'a1');
    queue.push('b', 'b1');
    queue.push('b', 'b2');
    expect(queue.shift()).toBe('a1');
    queue.push('a', 'a2');
    expect([queue.shift(), queue.shift(), queue.shift()]).toEqual(['b1', 'a2', 'b2']);
  });

  it('drains everything it holds', () => {
    const queue = new FairQueue<number>();
    queue.push('a', 1);
    queue.push('b', 2);
    expect(queue.drain().sort()).toEqual([1, 2]);
    expect(queue.size).toBe(0);
  });
});

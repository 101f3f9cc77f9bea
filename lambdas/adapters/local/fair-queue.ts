/**
 * A queue shared by owners (tenants) and served in turn: each shift takes
 * the next owner's oldest item, so one owner's hundred waiting items delay
 * another's by one, not by a hundred. Within an owner, first in, first out.
 */
export class FairQueue<T> {
  /** Each owner's items, in the order the owners take their turns (a Map keeps insertion order). */
  private readonly queues = new Map<string, T[]>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(owner: string, item: T): void {
    const queue = this.queues.get(owner);
    if (queue) queue.push(item);
    else this.queues.set(owner, [item]);
    this.count++;
  }

  /** The next owner's oldest item; that owner then goes to the back of the turn. */
  shift(): T | undefined {
    for (const [owner, queue] of this.queues) {
      this.queues.delete(owner);
      const item = queue.shift();
      if (queue.length) this.queues.set(owner, queue);
      if (item !== undefined) {
        this.count--;
        return item;
      }
    }
    return undefined;
  }

  /** Every item, emptied out (to fail them all). */
  drain(): T[] {
    const all = [...this.queues.values()].flat();
    this.queues.clear();
    this.count = 0;
    return all;
  }
}

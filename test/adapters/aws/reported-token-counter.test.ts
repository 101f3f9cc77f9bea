import { describe, expect, it } from 'vitest';
import { ReportedTokenCounter } from '../../../lambdas/adapters/aws/reported-token-counter.js';

describe('ReportedTokenCounter', () => {
  it('charges each reported embedding once, by text', async () => {
    const counter = new ReportedTokenCounter();
    counter.record('hello world', 3);
    counter.record('again', 2);
    counter.record('hello world', 3); // the same text embedded twice is charged twice
    expect(await counter.count(['hello world', 'again', 'never embedded'])).toBe(5);
    expect(await counter.count(['hello world'])).toBe(3);
    expect(await counter.count(['hello world', 'again'])).toBe(0);
  });

  it('forgets the oldest reports past its bound', async () => {
    const counter = new ReportedTokenCounter(2);
    counter.record('a', 1);
    counter.record('b', 10);
    counter.record('c', 100);
    expect(await counter.count(['a', 'b', 'c'])).toBe(110);
  });
});

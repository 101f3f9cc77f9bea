import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trigramQuery } from '../../lambdas/adapters/local/sqlite-grep-scan.js';
import { type LocalStack, openLocalStack } from '../../lambdas/wiring/local/local-stack.js';
import { HashingEmbedder } from '../support/hashing-embedder.js';

/**
 * Grep's use of the trigram index, one table for every library: a pattern is
 * asked for as its distinct trigrams (a few, each required), not as a phrase
 * FTS5 would check at every position of every document holding its first
 * trigram, and what they let through is still matched line by line.
 */
describe("grep's trigram query", () => {
  it("asks for a pattern's distinct trigrams, at most eight, spread over it", () => {
    expect(trigramQuery('a'.repeat(512))).toBe('"aaa"');
    expect(trigramQuery('INV-1007')).toBe('"INV" AND "NV-" AND "V-1" AND "-10" AND "100" AND "007"');
    const long = trigramQuery('the quick brown fox jumps over the lazy dog');
    expect(long.split(' AND ')).toHaveLength(8);
    expect(long.startsWith('"the"')).toBe(true);
    expect(long.endsWith('"dog"')).toBe(true);
    // Never FTS5 syntax: a quote in the pattern is doubled inside its trigram.
    expect(trigramQuery('say "hi"')).toContain('" ""h"');
  });

  describe('over the index', () => {
    let dataDir: string;
    let stack: LocalStack;
    const runOfA = { tenantId: 'ten_a', endUserId: 'run-of-a' };
    const other = { tenantId: 'ten_b', endUserId: null };
    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'grep-trigrams-'));
      stack = await openLocalStack({ dataDir, embedder: new HashingEmbedder() });
      await stack.services.capture.capture(runOfA, { text: 'a'.repeat(2 * 1024 * 1024 - 16) });
      await stack.services.capture.capture(other, { text: 'abc then bcd, and later abcd.\nonly abc and bcd here' });
      await stack.settled();
    });
    afterAll(() => {
      stack.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it("finds nothing of another library's run of a letter, and the run in its own", async () => {
      const long = 'a'.repeat(512);
      expect((await stack.services.grep.grep(other, { pattern: long, limit: 50, caseSensitive: false })).items).toEqual(
        [],
      );
      const own = await stack.services.grep.grep(runOfA, { pattern: long, limit: 50, caseSensitive: false });
      expect(own.items.map((hit) => hit.line)).toEqual([1]);
    });

    it('matches only lines holding the pattern itself, not lines holding each of its trigrams apart', async () => {
      const page = await stack.services.grep.grep(other, { pattern: 'abcd', limit: 50, caseSensitive: false });
      expect(page.items.map((hit) => hit.line)).toEqual([1]);
    });
  });
});

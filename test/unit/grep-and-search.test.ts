import { describe, expect, it } from 'vitest';
import { DomainError } from '../../lambdas/core/errors.js';
import type { LibraryRef } from '../../lambdas/core/model.js';
import { coreHarness } from '../support/core-harness.js';

const ref: LibraryRef = { tenantId: 'ten_g', endUserId: 'u' };

async function walk<T>(
  fetchPage: (cursor?: string) => Promise<{ items: T[]; hasMore: boolean; nextCursor: string | null }>,
) {
  const all: T[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 1000; pages++) {
    const page = await fetchPage(cursor);
    all.push(...page.items);
    if (!page.hasMore) {
      expect(page.nextCursor).toBeNull();
      return all;
    }
    cursor = page.nextCursor!;
  }
  throw new Error('paging never ended');
}

describe('GrepService', () => {
  it('matches literally, not as a regular expression, with 1-based lines and "N: " snippets', async () => {
    const { services } = coreHarness();
    const doc = await services.capture.capture(ref, {
      text: 'intro\nthe formula a.b*c(1) holds\naXbbbc(1) must not match\nA.B*C(1) upper',
    });
    const insensitive = await services.grep.grep(ref, { pattern: 'a.b*c(1)', caseSensitive: false, limit: 50 });
    expect(insensitive.items.map((r) => [r.line, r.snippet])).toEqual([
      [2, '2: the formula a.b*c(1) holds'],
      [4, '4: A.B*C(1) upper'],
    ]);
    expect(insensitive.items[0]).toMatchObject({ file_id: doc.id, title: 'intro', source_ref: null });
    const sensitive = await services.grep.grep(ref, { pattern: 'A.B*C(1)', caseSensitive: true, limit: 50 });
    expect(sensitive.items.map((r) => r.line)).toEqual([4]);
  });

  it('cuts long lines to 500 characters around the match, prefix included', async () => {
    const { services } = coreHarness();
    await services.capture.capture(ref, { text: `${'x'.repeat(3000)} NEEDLE ${'y'.repeat(3000)}` });
    const [result] = (await services.grep.grep(ref, { pattern: 'needle', caseSensitive: false, limit: 5 })).items;
    expect(result!.snippet.length).toBeLessThanOrEqual(500);
    expect(result!.snippet.startsWith('1: ')).toBe(true);
    expect(result!.snippet).toContain('NEEDLE');
    // Lower case may be longer than the text ("İ" is two units lowered): the cut is still around the match.
    await services.capture.capture(ref, { text: `${'İ'.repeat(700)} NEEDLEWORD ${'z'.repeat(700)}` });
    const [dotted] = (await services.grep.grep(ref, { pattern: 'needleword', caseSensitive: false, limit: 5 })).items;
    expect(dotted!.snippet.length).toBeLessThanOrEqual(500);
    expect(dotted!.snippet).toContain('İ NEEDLEWORD z');
  });

  it('pages newest document first then by line, every match exactly once', async () => {
    const { services } = coreHarness();
    const ids: string[] = [];
    for (let d = 0; d < 7; d++) {
      const lines = Array.from({ length: 9 }, (_, i) =>
        i % 3 === 0 ? `doc ${d} line ${i + 1} has token` : `filler ${d}-${i}`,
      );
      ids.push((await services.capture.capture(ref, { text: lines.join('\n') })).id!);
    }
    const all = await walk((cursor) =>
      services.grep.grep(ref, { pattern: 'TOKEN', caseSensitive: false, limit: 4, cursor }),
    );
    const expected = [...ids].reverse().flatMap((id) => [1, 4, 7].map((line) => `${id}:${line}`));
    expect(all.map((r) => `${r.file_id}:${r.line}`)).toEqual(expected);
  });

  it('restricts to one file and refuses a cursor from another pattern', async () => {
    const { services } = coreHarness();
    const a = await services.capture.capture(ref, { text: 'shared word\nshared again' });
    await services.capture.capture(ref, { text: 'shared elsewhere' });
    const onlyA = await services.grep.grep(ref, { pattern: 'shared', caseSensitive: false, fileId: a.id!, limit: 1 });
    expect(onlyA.items.map((r) => r.file_id)).toEqual([a.id]);
    expect(onlyA.hasMore).toBe(true);
    await expect(
      services.grep.grep(ref, { pattern: 'other', caseSensitive: false, limit: 1, cursor: onlyA.nextCursor! }),
    ).rejects.toThrow(DomainError);
  });

  it('finds short and non-ASCII patterns exhaustively', async () => {
    const { services } = coreHarness();
    await services.capture.capture(ref, { text: 'Ünïcode ÄRGER here\nok' });
    expect(
      (await services.grep.grep(ref, { pattern: 'ärger', caseSensitive: false, limit: 5 })).items.map((r) => r.line),
    ).toEqual([1]);
    expect(
      (await services.grep.grep(ref, { pattern: 'ok', caseSensitive: true, limit: 5 })).items.map((r) => r.line),
    ).toEqual([2]);
  });
});

describe('SearchService', () => {
  it('walks every result once across pages and refuses a cursor from another query or library', async () => {
    const { services } = coreHarness();
    for (let i = 0; i < 23; i++)
      await services.capture.capture(ref, {
        text: `Report number ${i} about harbour logistics and cranes ${'x'.repeat(i)}`,
      });
    const all = await walk((cursor) => services.search.search(ref, { q: 'harbour cranes', limit: 5, cursor }));
    expect(all).toHaveLength(23);
    expect(new Set(all.map((r) => r.id)).size).toBe(23);
    const first = await services.search.search(ref, { q: 'harbour cranes', limit: 5 });
    await expect(
      services.search.search(ref, { q: 'other words', limit: 5, cursor: first.nextCursor! }),
    ).rejects.toThrow(/cursor/);
    await expect(
      services.search.search({ ...ref, endUserId: 'v' }, { q: 'harbour cranes', limit: 5, cursor: first.nextCursor! }),
    ).rejects.toThrow(/cursor/);
  });

  it('refuses a cursor whose offset is negative, fractional or past any list it could have issued (422 cursor), as the other lists refuse forged keys', async () => {
    const { services } = coreHarness();
    for (let i = 0; i < 3; i++)
      await services.capture.capture({ ...ref, endUserId: `user${i}` }, { text: `harbour note ${i}` });
    for (let i = 0; i < 3; i++) await services.capture.capture(ref, { text: `harbour crane ${i}` });
    const rewrite = (cursor: string, change: (p: any) => unknown) => {
      const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
      parsed.p = change(parsed.p);
      return Buffer.from(JSON.stringify(parsed)).toString('base64url');
    };
    const expectRefused = async (call: Promise<unknown>) =>
      expect(await call.catch((e: unknown) => e)).toMatchObject({
        code: 'invalid_request',
        message: expect.stringMatching(/^cursor: /),
      });

    const first = await services.search.search(ref, { q: 'harbour', limit: 1 });
    // Each leg brings at most 200 candidates: no list is longer than 400.
    for (const offset of [-1, 1.5, 1e300, 401]) {
      await expectRefused(
        services.search.search(ref, { q: 'harbour', limit: 1, cursor: rewrite(first.nextCursor!, () => offset) }),
      );
    }
    expect(
      (await services.search.search(ref, { q: 'harbour', limit: 1, cursor: rewrite(first.nextCursor!, () => 400) }))
        .items,
    ).toEqual([]);

    const documents = await services.documents.list(ref, { limit: 1 });
    for (const change of [
      (p: any) => ({ ...p, id: 'f'.repeat(5_000) }),
      (p: any) => ({ ...p, createdAt: '' }),
      () => 7,
    ]) {
      await expectRefused(services.documents.list(ref, { limit: 1, cursor: rewrite(documents.nextCursor!, change) }));
    }
    const users = await services.endUsers.list(ref.tenantId, { limit: 1 });
    for (const change of [() => 'u'.repeat(257), () => '', () => -1]) {
      await expectRefused(
        services.endUsers.list(ref.tenantId, { limit: 1, cursor: rewrite(users.nextCursor!, change) }),
      );
    }
  });

  it('returns an empty page for a library that does not exist, without creating it', async () => {
    const { services, ports } = coreHarness();
    const ghost = { tenantId: 'ten_g', endUserId: 'ghost' };
    expect((await services.search.search(ghost, { q: 'anything', limit: 10 })).items).toEqual([]);
    expect(await ports.documents.libraryExists(ghost)).toBe(false);
  });

  it('keeps only the requested kinds', async () => {
    const { services } = coreHarness();
    await services.capture.capture(ref, { text: 'lighthouse keeper diary' });
    expect((await services.search.search(ref, { q: 'lighthouse', limit: 10, kinds: ['chat'] })).items).toEqual([]);
    const kept = await services.search.search(ref, { q: 'lighthouse', limit: 10, kinds: ['file_excerpt'] });
    expect(kept.items.map((r) => r.kind)).toEqual(['file_excerpt']);
    expect(kept.items[0]!.from_keyword).toBe(true);
    expect(kept.items[0]!.content_date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/);
  });
});

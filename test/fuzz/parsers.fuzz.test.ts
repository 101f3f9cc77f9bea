import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../lambdas/adapters/local/database.js';
import { keywordMatchExpression } from '../../lambdas/adapters/local/fts-query.js';
import { SqliteSearchIndex } from '../../lambdas/adapters/local/sqlite-search-index.js';
import { decodeCursor, encodeCursor, isNewestFirstKey } from '../../lambdas/core/cursor.js';
import { DomainError } from '../../lambdas/core/errors.js';
import { type Filter, matchesFilter, parseFilterParam } from '../../lambdas/core/filter.js';
import { GrepService } from '../../lambdas/core/grep.js';
import { checkMetadata } from '../../lambdas/core/metadata.js';
import type { IndexItem, LibraryRef } from '../../lambdas/core/model.js';
import { keywordTerms, MAX_QUERY_TERMS } from '../../lambdas/core/query-terms.js';

/**
 * Property-based tests over what parses a caller's words: the search query
 * (terms, and the FTS5 expression built from them), page cursors, and grep's
 * literal matching. Whatever the input: bounded work, no syntax reaching the
 * engine, a contract error or a right answer.
 */
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 1_000 }),
  fc
    .array(
      fc.constantFrom(
        '"',
        "'",
        '*',
        '^',
        ':',
        '(',
        ')',
        'AND',
        'OR',
        'NOT',
        'NEAR',
        '-',
        '+',
        '{',
        '}',
        ' ',
        'word',
        'é',
        '\u0000',
        '日本',
      ),
      { maxLength: 300 },
    )
    .map((p) => p.join('')),
  fc.array(fc.stringMatching(/^[a-z]{1,12}$/), { maxLength: 400 }).map((words) => words.join(' ').slice(0, 1_000)),
);

describe('the search query', () => {
  const db = new Database(':memory:');
  db.exec("CREATE VIRTUAL TABLE t USING fts5(title, body, context, tokenize = 'porter unicode61')");
  db.prepare('INSERT INTO t VALUES (?, ?, ?)').run('a title', 'some body words NEAR and OR', 'context');
  const count = db.prepare('SELECT count(*) FROM t WHERE t MATCH ?').pluck();

  it('becomes at most MAX_QUERY_TERMS quoted terms that FTS5 reads as words, never as syntax, in bounded time', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const started = performance.now();
        const terms = keywordTerms(text);
        expect(terms.length).toBeLessThanOrEqual(MAX_QUERY_TERMS);
        const expression = keywordMatchExpression(text);
        if (expression === null) expect(terms).toHaveLength(0);
        else expect(() => count.get(expression)).not.toThrow();
        // Bounded: milliseconds whatever the text (a pattern that backtracked would take seconds); generous for a loaded machine.
        expect(performance.now() - started).toBeLessThan(1_000);
      }),
      { numRuns: 300 },
    );
  });
});

describe('page cursors', () => {
  it('any string is a position this API issued, or a 422 naming the cursor; never another error', () => {
    const scope = 'scope-1';
    const forged = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.jsonValue().map((p) => encodeCursor(scope, p)),
      fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v)).toString('base64url')),
    );
    fc.assert(
      fc.property(forged, (cursor) => {
        try {
          const position = decodeCursor(cursor, scope, isNewestFirstKey);
          expect(isNewestFirstKey(position)).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(DomainError);
          expect((error as DomainError).code).toBe('invalid_request');
          expect((error as DomainError).message).toMatch(/^cursor: /);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('grep', () => {
  const ref: LibraryRef = { tenantId: 'ten_fuzz', endUserId: null };
  const GENERATION = 'g';
  const line = fc
    .array(fc.constantFrom('a', 'b', 'A', 'é', 'É', 'ß', '\t', ' ', 'İ', 'ı', '"', '%', '_'), { maxLength: 12 })
    .map((c) => c.join(''));
  const texts = fc.array(
    fc.array(line, { minLength: 1, maxLength: 8 }).map((lines) => lines.join('\n')),
    { minLength: 1, maxLength: 4 },
  );
  const pattern = fc
    .array(fc.constantFrom('a', 'b', 'A', 'é', 'É', 'ß', ' ', 'İ', 'ı', '"', '%', '_'), { minLength: 1, maxLength: 4 })
    .map((c) => c.join(''));

  it('finds exactly the lines that contain the pattern, walking every page once, for any pattern and case', async () => {
    await fc.assert(
      fc.asyncProperty(
        texts,
        pattern,
        fc.boolean(),
        fc.integer({ min: 1, max: 5 }),
        async (docs, needle, caseSensitive, limit) => {
          const index = new SqliteSearchIndex(openDatabase(':memory:'), 4, 'none');
          const expected: string[] = [];
          for (const [i, text] of docs.entries()) {
            const item: IndexItem = {
              itemId: `file_${String(i).padStart(26, '0')}`,
              kind: 'file_excerpt',
              title: null,
              sourceRef: null,
              contentDate: `2026-01-0${i + 1}T00:00:00.000000`,
              text,
              passages: [],
              vectors: [],
            };
            await index.put(ref, item, GENERATION);
          }
          // Newest document first, then line: the contract's order.
          for (const [i, text] of [...docs.entries()].reverse()) {
            text.split('\n').forEach((l, n) => {
              const found = caseSensitive ? l.includes(needle) : l.toLowerCase().includes(needle.toLowerCase());
              if (found) expected.push(`${i}:${n + 1}`);
            });
          }
          const grep = new GrepService({ index, documents: { libraryGeneration: async () => GENERATION } });
          const seen: string[] = [];
          let cursor: string | undefined;
          for (let pages = 0; pages < 100; pages++) {
            const page = await grep.grep(ref, { pattern: needle, caseSensitive, limit, cursor });
            for (const r of page.items) seen.push(`${Number(r.file_id.slice(5))}:${r.line}`);
            if (!page.hasMore) break;
            cursor = page.nextCursor!;
          }
          expect(seen).toEqual(expected);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('filters and metadata (core/filter.ts, core/metadata.ts)', () => {
  const filterish = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      fc.jsonValue({ maxDepth: 3 }),
      fc.dictionary(
        fc.oneof(
          fc.constantFrom(
            'and',
            'or',
            'not',
            'metadata.a',
            'metadata.',
            'title',
            'kind',
            'created_at',
            'eq',
            'in',
            'gt',
            'prefix',
            'exists',
            '__proto__',
          ),
          fc.string({ maxLength: 12 }),
        ),
        tie('node'),
        { maxKeys: 4 },
      ),
      fc.array(tie('node'), { maxLength: 4 }),
    ),
  })).node;

  it('any JSON is a filter or a 422 naming a path inside it, in bounded time; a filter evaluates without throwing', () => {
    fc.assert(
      fc.property(filterish, (value) => {
        const started = performance.now();
        let filter: Filter | null = null;
        try {
          filter = parseFilterParam(JSON.stringify(value) ?? 'null');
        } catch (error) {
          expect(error).toBeInstanceOf(DomainError);
          expect((error as DomainError).code).toBe('invalid_request');
          expect((error as DomainError).message).toMatch(/^filter[.[:]/);
        }
        if (filter) {
          const subject = {
            metadata: { a: 1, b: ['x'] },
            source_ref: null,
            title: 't',
            kinds: ['text', 'file_excerpt'],
            content_type: 'text/plain',
            created_at: '2026-01-01T00:00:00.000000',
            content_date: '2026-01-01T00:00:00.000000',
          };
          expect(typeof matchesFilter(subject, filter)).toBe('boolean');
        }
        expect(performance.now() - started).toBeLessThan(1_000);
      }),
      { numRuns: 500 },
    );
  });

  it('any JSON is metadata or a 422 naming the key', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.jsonValue({ maxDepth: 2 }),
          fc.dictionary(fc.string({ maxLength: 70 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 40 }),
        ),
        (value) => {
          try {
            const metadata = checkMetadata(value);
            expect(Object.keys(metadata).length).toBeLessThanOrEqual(32);
          } catch (error) {
            expect(error).toBeInstanceOf(DomainError);
            expect((error as DomainError).message).toMatch(/^metadata[.:[]/);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

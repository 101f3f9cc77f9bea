import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../lambdas/adapters/local/database.js';
import { SqliteDocumentStore } from '../../lambdas/adapters/local/sqlite-document-store.js';
import { SqliteSearchIndex } from '../../lambdas/adapters/local/sqlite-search-index.js';
import { type Filter, matchesFilter, parseFilter } from '../../lambdas/core/filter.js';
import { documentSubject, itemKindOf, itemSubject } from '../../lambdas/core/filter-subject.js';
import type { Metadata } from '../../lambdas/core/metadata.js';
import type { DocumentRecord, IndexItem } from '../../lambdas/core/model.js';
import { axisVector, documentRecord, timestamp } from '../contract/fixtures.js';

/**
 * The SQLite stores compile filters to SQL over their metadata tables
 * (adapters/local/sqlite-filter.ts). Whatever the filter and the documents,
 * they must keep exactly what the reference semantics (core/filter.ts,
 * matchesFilter) keeps: the document list, grep's candidates and both legs
 * of search.
 */

const dir = mkdtempSync(join(tmpdir(), 'library-filters-'));
let n = 0;
const DIMENSIONS = 8;

// Few keys and values, so random filters and documents meet often.
const KEYS = ['project', 'year', 'tags', 'done', 'due'];
const STRINGS = [
  'apollo',
  'gemini',
  'Apollo',
  'apollo-2',
  '2024',
  '2024-03-01',
  '2025-01-15T10:00:00Z',
  '',
  'apo\u{10FFFF}',
  'ap\u{10FFFF}x',
  'é\u{1F600}',
];
const scalar = fc.oneof(fc.constantFrom(...STRINGS), fc.constantFrom(2023, 2024, 2024.5, -1, 0), fc.boolean());
const metadataValue = fc.oneof(
  fc.constantFrom(...STRINGS),
  fc.constantFrom(2023, 2024, 2024.5, -1, 0),
  fc.boolean(),
  fc.uniqueArray(fc.constantFrom(...STRINGS), { maxLength: 3 }),
);
const metadata: fc.Arbitrary<Metadata> = fc.dictionary(fc.constantFrom(...KEYS), metadataValue, { maxKeys: 4 });

const field = fc.oneof(
  fc.constantFrom(...KEYS).map((k) => `metadata.${k}`),
  fc.constantFrom('source_ref', 'title', 'kind', 'content_type'),
);
const condition = fc.oneof(
  scalar,
  fc.record({ eq: scalar }),
  fc.record({ ne: scalar }),
  fc.record({ in: fc.array(scalar, { minLength: 1, maxLength: 3 }) }),
  fc.record({ nin: fc.array(scalar, { minLength: 1, maxLength: 3 }) }),
  fc.record({ exists: fc.boolean() }),
  fc.record({
    prefix: fc.constantFrom('apo', 'A', '', '2024', 'notes/', 'text', 'file_', 'ap\u{10FFFF}', '\u{10FFFF}', 'é'),
  }),
);
const leaf: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.tuple(field, condition).map(([f, c]) => ({ [f]: c })),
  fc
    .tuple(
      fc.constantFrom(...KEYS),
      fc.constantFrom('gt', 'gte', 'lt', 'lte'),
      fc.oneof(fc.constantFrom(2023, 2024, 0), fc.constantFrom('2024-01-01', '2024-06-01T00:00:00Z')),
    )
    .map(([k, op, v]) => ({ [`metadata.${k}`]: { [op]: v } })),
  fc
    .tuple(
      fc.constantFrom('created_at', 'content_date'),
      fc.constantFrom('gt', 'lte'),
      fc.constantFrom('2026-01-01', '2026-11-22T06:00:00.030000'),
    )
    .map(([f, op, v]) => ({ [f]: { [op]: v } })),
);
const filterValue: fc.Arbitrary<Record<string, unknown>> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    leaf,
    fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((filters) => ({ and: filters })),
    fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((filters) => ({ or: filters })),
    tie('node').map((filter) => ({ not: filter })),
  ),
})).node as fc.Arbitrary<Record<string, unknown>>;

/** A filter the parser accepts (depth and counts within bounds), or null. */
function parsed(value: Record<string, unknown>): Filter | null {
  try {
    return parseFilter(value);
  } catch {
    return null;
  }
}

const SOURCES = ['notes/a.md', 'notes/b.md', 'mail/1', null];
const KINDS: DocumentRecord['kind'][] = ['text', 'file', 'image'];

describe('filters on SQLite keep exactly what the reference semantics keep', () => {
  it('in the document list, grep candidates and both legs of search, for random filters and documents', async () => {
    const db = openDatabase(join(dir, `db-${++n}.sqlite`));
    const store = new SqliteDocumentStore(db);
    const index = new SqliteSearchIndex(db, DIMENSIONS, 'test');
    const ref = { tenantId: 'ten_filters', endUserId: null };
    await store.touchLibrary(ref, timestamp());
    const docs: DocumentRecord[] = [];
    const items: IndexItem[] = [];
    const samples = fc.sample(metadata, { numRuns: 60, seed: 7 });
    for (const [i, meta] of samples.entries()) {
      const kind = KINDS[i % KINDS.length]!;
      const doc = documentRecord(ref, {
        metadata: meta,
        sourceRef: SOURCES[i % SOURCES.length]!,
        kind,
        title: `note ${i}`,
        contentType: kind === 'image' ? 'image/png' : 'text/plain',
      });
      await store.claim(doc);
      const item: IndexItem = {
        itemId: doc.id,
        kind: itemKindOf(kind),
        title: doc.title,
        sourceRef: doc.sourceRef,
        contentDate: doc.createdAt,
        text: `zebra line ${i}`,
        passages: [{ ordinal: 0, lineStart: 1, lineEnd: 1, text: `zebra line ${i}` }],
        vectors: [axisVector(DIMENSIONS, i % DIMENSIONS, 0.1)],
        metadata: meta,
        documentKind: kind,
        contentType: doc.contentType,
      };
      await index.put(ref, item);
      docs.push(doc);
      items.push(item);
    }
    // A chat memory has no metadata and no document kind.
    const chat: IndexItem = {
      itemId: 'msg_chat',
      kind: 'chat',
      title: null,
      sourceRef: null,
      contentDate: timestamp(),
      text: 'zebra chat',
      passages: [{ ordinal: 0, lineStart: 1, lineEnd: 1, text: 'zebra chat' }],
      vectors: [axisVector(DIMENSIONS, 0)],
    };
    await index.put(ref, chat);

    let checked = 0;
    await fc.assert(
      fc.asyncProperty(filterValue, async (value) => {
        const filter = parsed(value);
        if (!filter) return;
        checked += 1;
        const expectedDocs = docs
          .filter((d) => matchesFilter(documentSubject(d), filter))
          .map((d) => d.id)
          .sort();
        const listed = (await store.list(ref, { limit: 1000, filter })).map((d) => d.id).sort();
        expect(listed, JSON.stringify(value)).toEqual(expectedDocs);

        const expectedItems = [...items, chat]
          .filter((it) => matchesFilter(itemSubject(it), filter))
          .map((it) => it.itemId)
          .sort();
        const grepped: string[] = [];
        for await (const c of index.grepCandidates(ref, { pattern: 'zebra', caseSensitive: false, filter }))
          grepped.push(c.itemId);
        // Grep reads documents only.
        expect(grepped.sort(), JSON.stringify(value)).toEqual(expectedItems.filter((id) => id !== 'msg_chat'));
        const keyword = (await index.keywordSearch(ref, { text: 'zebra', limit: 1000, filter }))
          .map((h) => h.itemId)
          .sort();
        expect(keyword, JSON.stringify(value)).toEqual(expectedItems);
        const vector = (await index.vectorSearch(ref, { vector: axisVector(DIMENSIONS, 1), limit: 1000, filter }))
          .map((h) => h.itemId)
          .sort();
        expect(vector, JSON.stringify(value)).toEqual(expectedItems);
        // A small limit: the best matches of the leg's own order, whether the leg finds them among its wider unfiltered
        // top or (too few there) with the filter inside it.
        const keeps = new Set(expectedItems);
        for (const limit of [1, 3]) {
          const keywordOrder = (await index.keywordSearch(ref, { text: 'zebra', limit: 1000 }))
            .map((h) => h.itemId)
            .filter((id) => keeps.has(id));
          const keywordTop = (await index.keywordSearch(ref, { text: 'zebra', limit, filter })).map((h) => h.itemId);
          expect(keywordTop, `${limit} ${JSON.stringify(value)}`).toEqual(keywordOrder.slice(0, limit));
          const query = { vector: axisVector(DIMENSIONS, 1) };
          const vectorOrder = (await index.vectorSearch(ref, { ...query, limit: 1000 }))
            .map((h) => h.itemId)
            .filter((id) => keeps.has(id));
          const vectorTop = (await index.vectorSearch(ref, { ...query, limit, filter })).map((h) => h.itemId);
          expect(vectorTop, `${limit} ${JSON.stringify(value)}`).toEqual(vectorOrder.slice(0, limit));
        }
      }),
      { numRuns: 300, seed: 11 },
    );
    expect(checked).toBeGreaterThan(200);
  });

  it('sees a metadata change (PATCH) at once, in the list and the index alike', async () => {
    const db = openDatabase(join(dir, `db-${++n}.sqlite`));
    const store = new SqliteDocumentStore(db);
    const index = new SqliteSearchIndex(db, DIMENSIONS, 'test');
    const ref = { tenantId: 'ten_patch', endUserId: 'ann' };
    await store.touchLibrary(ref, timestamp());
    const doc = documentRecord(ref, { metadata: { project: 'apollo' } });
    await store.claim(doc);
    await index.put(ref, {
      itemId: doc.id,
      kind: 'file_excerpt',
      title: doc.title,
      sourceRef: null,
      contentDate: doc.createdAt,
      text: 'zebra',
      passages: [{ ordinal: 0, lineStart: 1, lineEnd: 1, text: 'zebra' }],
      vectors: [axisVector(DIMENSIONS, 0)],
      metadata: { project: 'apollo' },
      documentKind: 'text',
    });
    const gemini = parseFilter({ 'metadata.project': 'gemini' });
    expect(await store.list(ref, { limit: 10, filter: gemini })).toEqual([]);
    await index.updateItem(ref, doc.id, { metadata: { project: 'gemini' }, title: 'Renamed quokka' });
    await store.update(ref, doc.id, { metadata: { project: 'gemini' }, title: 'Renamed quokka' });
    expect((await store.list(ref, { limit: 10, filter: gemini })).map((d) => d.id)).toEqual([doc.id]);
    expect(
      (await index.keywordSearch(ref, { text: 'zebra', limit: 10, filter: gemini })).map((h) => [h.itemId, h.metadata]),
    ).toEqual([[doc.id, { project: 'gemini' }]]);
    // The new title is found by its words.
    expect((await index.keywordSearch(ref, { text: 'quokka', limit: 10 })).map((h) => h.itemId)).toEqual([doc.id]);
    expect(
      await index.keywordSearch(ref, {
        text: 'zebra',
        limit: 10,
        filter: parseFilter({ 'metadata.project': 'apollo' }),
      }),
    ).toEqual([]);
  });

  it("a data folder from before filters gets its documents' kind and content type from their records at start", async () => {
    const path = join(dir, `db-${++n}.sqlite`);
    const db = openDatabase(path);
    const store = new SqliteDocumentStore(db);
    let index = new SqliteSearchIndex(db, DIMENSIONS, 'test');
    const ref = { tenantId: 'ten_old', endUserId: null };
    await store.touchLibrary(ref, timestamp());
    const doc = documentRecord(ref, { kind: 'file', contentType: 'application/pdf' });
    await store.claim(doc);
    await index.put(ref, {
      itemId: doc.id,
      kind: 'file_excerpt',
      title: doc.title,
      sourceRef: null,
      contentDate: doc.createdAt,
      text: 'zebra',
      passages: [{ ordinal: 0, lineStart: 1, lineEnd: 1, text: 'zebra' }],
      vectors: [axisVector(DIMENSIONS, 0)],
    });
    // As an earlier version left it: no filter columns.
    for (const column of ['metadata', 'doc_kind', 'content_type']) db.exec(`ALTER TABLE items DROP COLUMN ${column}`);
    index = new SqliteSearchIndex(db, DIMENSIONS, 'test');
    const pdfs = parseFilter({ content_type: 'application/pdf', kind: 'file' });
    expect(
      (await index.keywordSearch(ref, { text: 'zebra', limit: 5, filter: pdfs })).map((h) => [h.itemId, h.metadata]),
    ).toEqual([[doc.id, {}]]);
  });
});

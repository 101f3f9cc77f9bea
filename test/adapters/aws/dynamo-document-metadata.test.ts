import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDocumentStore } from '../../../lambdas/adapters/aws/dynamo-document-store.js';
import { DOCUMENTS_TABLE } from '../../../lambdas/adapters/aws/table-schemas.js';
import { type Filter, matchesFilter, parseFilter } from '../../../lambdas/core/filter.js';
import { documentSubject } from '../../../lambdas/core/filter-subject.js';
import type { Metadata } from '../../../lambdas/core/metadata.js';
import type { DocumentRecord, LibraryRef } from '../../../lambdas/core/model.js';
import { documentRecord, timestamp } from '../../contract/fixtures.js';
import { startDynalite } from './local-aws.js';

/**
 * Document metadata on DynamoDB (dynalite): stored and read back as given,
 * changed by update (PATCH), and filtered by the list, which evaluates the
 * filter on each record it reads and so must read on, page after page, until
 * its page is full: every match once over the pages, none skipped.
 */
let dynamo: Awaited<ReturnType<typeof startDynalite>>;
beforeAll(async () => {
  dynamo = await startDynalite();
});
afterAll(async () => {
  await dynamo?.close();
});

let libraries = 0;
async function library(endUserId: string | null = 'u') {
  const table = await dynamo.createTable(DOCUMENTS_TABLE);
  const store = new DynamoDocumentStore(dynamo.client, table);
  const ref: LibraryRef = { tenantId: `ten_meta${++libraries}`, endUserId };
  await store.touchLibrary(ref, timestamp());
  return { store, table, ref };
}

const doc = (ref: LibraryRef, overrides: Partial<DocumentRecord> = {}): DocumentRecord =>
  documentRecord(ref, { metadata: {}, ...overrides });

/** Every record the list returns over pages of `limit`, each page after the previous one's last record. */
async function allPages(store: DynamoDocumentStore, ref: LibraryRef, limit: number, filter?: Filter) {
  const seen: DocumentRecord[][] = [];
  for (let after: DocumentRecord | undefined; ; ) {
    const page = await store.list(ref, {
      limit,
      filter,
      ...(after ? { after: { createdAt: after.createdAt, id: after.id } } : {}),
    });
    seen.push(page);
    if (page.length < limit) return seen;
    after = page.at(-1);
  }
}

describe('DynamoDocumentStore: metadata', () => {
  it('stores metadata and reads it back as given, numbers of any size included; a record written before metadata reads {}', async () => {
    const { store, table, ref } = await library();
    const metadata: Metadata = {
      tags: ['travel', '2026', ''],
      year: 2026,
      ratio: -0.125,
      huge: 1e200,
      tiny: 5e-324,
      done: false,
      empty: [],
      note: 'été ☕ "quoted"',
      blank: '',
      'a.b-c_d': '2026-11-22T06:41:03+02:00',
    };
    const withMeta = doc(ref, { metadata });
    const without = doc(ref);
    await store.claim(withMeta);
    await store.claim(without);
    expect(await store.get(ref, withMeta.id)).toEqual(withMeta);
    expect((await store.findBySha256(ref, withMeta.sha256))!.metadata).toEqual(metadata);
    expect(await store.get(ref, without.id)).toEqual(without);
    expect((await store.list(ref, { limit: 10 })).map((d) => d.metadata)).toEqual([{}, metadata]);
    expect((await store.listAll(ref)).find((d) => d.id === withMeta.id)!.metadata).toEqual(metadata);

    // Written before metadata existed: no attribute at all.
    await dynamo.client.send(
      new UpdateCommand({
        TableName: table,
        Key: { pk: `LIB#${ref.tenantId}#U#u`, sk: `SHA#${without.sha256}` },
        UpdateExpression: 'REMOVE metadata',
      }),
    );
    expect((await store.get(ref, without.id))!.metadata).toEqual({});
  });

  it('update changes title, source_ref (null: none) and metadata (replaced whole), and answers the record as written', async () => {
    const { store, ref } = await library();
    const original = doc(ref, { sourceRef: 'notes/a.md', metadata: { a: 1, b: ['x'] } });
    await store.claim(original);

    const renamed = await store.update(ref, original.id, { title: 'New title', metadata: { c: true } });
    expect(renamed).toEqual({ ...original, title: 'New title', metadata: { c: true } });
    expect(await store.get(ref, original.id)).toEqual(renamed);

    const moved = await store.update(ref, original.id, { sourceRef: 'notes/b.md' });
    expect(moved).toEqual({ ...renamed, sourceRef: 'notes/b.md' });
    expect((await store.list(ref, { limit: 10, sourceRef: 'notes/b.md' })).map((d) => d.id)).toEqual([original.id]);
    expect(await store.list(ref, { limit: 10, sourceRef: 'notes/a.md' })).toEqual([]);

    const cleared = await store.update(ref, original.id, { sourceRef: null, metadata: {} });
    expect(cleared).toEqual({ ...moved!, sourceRef: null, metadata: {} });
    expect(await store.get(ref, original.id)).toEqual(cleared);
    expect(await store.list(ref, { limit: 10, sourceRef: 'notes/b.md' })).toEqual([]);
    // Nothing to change: the record as it is.
    expect(await store.update(ref, original.id, {})).toEqual(cleared);
  });

  it('update answers null and writes nothing for an unknown id, a document of another library, or one deleted', async () => {
    const { store, ref } = await library('alice');
    const other: LibraryRef = { tenantId: ref.tenantId, endUserId: 'bob' };
    await store.touchLibrary(other, timestamp());
    const mine = doc(ref, { metadata: { k: 'v' } });
    await store.claim(mine);
    expect(await store.update(ref, 'file_unknown', { title: 'x' })).toBeNull();
    expect(await store.update(other, mine.id, { title: 'x', metadata: {} })).toBeNull();
    expect(await store.update({ tenantId: 'ten_other', endUserId: 'alice' }, mine.id, { title: 'x' })).toBeNull();
    expect(await store.get(ref, mine.id)).toEqual(mine);
    await store.delete(ref, mine.id);
    expect(await store.update(ref, mine.id, { title: 'x' })).toBeNull();
    expect(await store.update(ref, mine.id, {})).toBeNull();
    expect(await store.get(ref, mine.id)).toBeNull();
  });

  it('lists a selective filter over pages of 2: every match once, newest first, none skipped, across DynamoDB pages', async () => {
    const { store, ref } = await library();
    const docs: DocumentRecord[] = [];
    // 230 documents (more than one DynamoDB page of 100), the matches sparse and uneven: some runs, long gaps.
    const wanted = new Set([0, 1, 2, 57, 99, 100, 101, 150, 199, 200, 228, 229]);
    for (let i = 0; i < 230; i++) {
      const d = doc(ref, { metadata: wanted.has(i) ? { project: 'apollo', n: i } : { project: 'gemini', n: i } });
      await store.claim(d);
      docs.push(d);
    }
    const filter = parseFilter({ 'metadata.project': 'apollo' });
    const pages = await allPages(store, ref, 2, filter);
    const expected = [...docs]
      .reverse()
      .filter((d) => wanted.has(d.metadata.n as number))
      .map((d) => d.id);
    expect(pages.flat().map((d) => d.id)).toEqual(expected);
    // Every page full but the last.
    expect(pages.slice(0, -1).every((p) => p.length === 2)).toBe(true);
    // A page of 5 from the middle starts right after its key.
    const fromMiddle = await store.list(ref, {
      limit: 5,
      filter,
      after: { createdAt: docs[150]!.createdAt, id: docs[150]!.id },
    });
    expect(fromMiddle.map((d) => d.metadata.n)).toEqual([101, 100, 99, 57, 2]);
    // Nothing matches: one empty page, after reading the whole library.
    expect(await store.list(ref, { limit: 2, filter: parseFilter({ 'metadata.project': 'mercury' }) })).toEqual([]);
  });

  it('keeps source_ref and replacing as they were, with a filter beside them', async () => {
    const { store, ref } = await library();
    const a = doc(ref, { sourceRef: 'notes/a.md', metadata: { v: 1 } });
    const b = doc(ref, { sourceRef: 'notes/a.md', metadata: { v: 2 } });
    const waiting = doc(ref, { sourceRef: 'notes/a.md', metadata: { v: 2 }, status: 'processing', replacing: true });
    const elsewhere = doc(ref, { sourceRef: 'notes/z.md', metadata: { v: 2 } });
    for (const d of [a, b, waiting, elsewhere]) await store.claim(d);
    const filter = parseFilter({ 'metadata.v': { gte: 2 } });
    expect((await store.list(ref, { limit: 10, sourceRef: 'notes/a.md', filter })).map((d) => d.id)).toEqual([b.id]);
    expect(
      (await store.list(ref, { limit: 10, sourceRef: 'notes/a.md', filter, includeReplacing: true })).map((d) => d.id),
    ).toEqual([waiting.id, b.id]);
    expect((await store.list(ref, { limit: 10, filter })).map((d) => d.id)).toEqual([elsewhere.id, b.id]);
  });

  it('agrees with matchesFilter over random records and filters, at every page size', async () => {
    const { store, ref } = await library();
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
    const values = [
      'red',
      'blue',
      '2026-01-02',
      '2026-01-02T10:00:00+02:00',
      3,
      10,
      -1,
      true,
      false,
      ['red', 'x'],
      ['blue'],
      [],
    ] as const;
    const docs: DocumentRecord[] = [];
    for (let i = 0; i < 60; i++) {
      const metadata: Metadata = {};
      for (const key of ['a', 'b', 'c'])
        if (random() < 0.6) metadata[key] = structuredClone(pick(values)) as Metadata[string];
      const d = doc(ref, {
        metadata,
        title: pick(['Alpha notes', 'Beta', 'alpha']),
        sourceRef: pick([null, 'notes/a.md', 'web/b']),
        kind: pick(['text', 'file', 'image'] as const),
        contentType: pick(['text/plain', 'application/pdf', 'image/png']),
      });
      await store.claim(d);
      docs.push(d);
    }
    const condition = () => {
      const field = pick([
        'metadata.a',
        'metadata.b',
        'metadata.c',
        'title',
        'source_ref',
        'kind',
        'content_type',
        'created_at',
      ]);
      const scalar = () =>
        field === 'created_at'
          ? docs[Math.floor(random() * docs.length)]!.createdAt
          : pick(['red', 'blue', 3, 10, true, 'text', 'image', 'file_excerpt', 'web/b', 'Beta']);
      switch (pick(['eq', 'ne', 'in', 'nin', 'gt', 'lte', 'exists', 'prefix'])) {
        case 'eq':
          return { [field]: scalar() };
        case 'ne':
          return { [field]: { ne: scalar() } };
        case 'in':
          return { [field]: { in: [scalar(), scalar()] } };
        case 'nin':
          return { [field]: { nin: [scalar(), scalar()] } };
        case 'gt':
          return { [field]: { gt: field === 'created_at' ? scalar() : pick([3, '2026-01-01', 0]) } };
        case 'lte':
          return { [field]: { lte: field === 'created_at' ? scalar() : pick([10, '2026-01-02T08:30:00Z']) } };
        case 'exists':
          return { [field]: { exists: random() < 0.5 } };
        default:
          return { [field]: { prefix: pick(['re', 'a', 'notes/', 'B', '']) } };
      }
    };
    const tree = (depth: number): unknown => {
      if (depth >= 2 || random() < 0.4) return condition();
      const kind = pick(['and', 'or', 'not']);
      return kind === 'not' ? { not: tree(depth + 1) } : { [kind]: [tree(depth + 1), tree(depth + 1)] };
    };
    const newestFirst = [...docs].reverse();
    let nonTrivial = 0;
    for (let run = 0; run < 40; run++) {
      let filter: Filter;
      try {
        filter = parseFilter(tree(0));
      } catch {
        continue; // a range on a field that takes none: the parser's 422, not the store's concern
      }
      const expected = newestFirst.filter((d) => matchesFilter(documentSubject(d), filter)).map((d) => d.id);
      if (expected.length > 0 && expected.length < docs.length) nonTrivial++;
      for (const limit of [1, 3, 100])
        expect((await allPages(store, ref, limit, filter)).flat().map((d) => d.id)).toEqual(expected);
    }
    expect(nonTrivial).toBeGreaterThan(10);
  });
});

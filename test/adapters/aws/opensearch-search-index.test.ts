import { Client } from '@opensearch-project/opensearch';
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { FILTER_FIELDS, filterQuery } from '../../../lambdas/adapters/aws/opensearch-filter.js';
import { fetchBatches, GREP_FETCH_BYTES } from '../../../lambdas/adapters/aws/opensearch-grep-scan.js';
import type {
  OpenSearchRequest,
  OpenSearchTransport,
} from '../../../lambdas/adapters/aws/opensearch-index-requests.js';
import { OpenSearchSearchIndex } from '../../../lambdas/adapters/aws/opensearch-search-index.js';
import { BackendUnavailableError } from '../../../lambdas/core/errors.js';
import { parseFilter } from '../../../lambdas/core/filter.js';
import { GrepService } from '../../../lambdas/core/grep.js';
import { MEMORY_CONTEXT } from '../../../lambdas/core/memory-context.js';
import type { Metadata } from '../../../lambdas/core/metadata.js';
import type { GrepCandidate, LibraryRef } from '../../../lambdas/core/model.js';
import { keywordTerms, MAX_QUERY_TERMS } from '../../../lambdas/core/query-terms.js';
import { axisVector, indexItem } from '../../contract/fixtures.js';
import { searchIndexContract } from '../../contract/search-index.contract.js';

/** A transport that records every request and answers from a script (the first matching route). */
class RecordingTransport implements OpenSearchTransport {
  requests: OpenSearchRequest[] = [];
  constructor(private readonly routes: Array<[RegExp, (request: OpenSearchRequest) => unknown]> = []) {}
  async request(params: OpenSearchRequest) {
    this.requests.push(params);
    const route = this.routes.find(([pattern]) => pattern.test(`${params.method} ${params.path}`));
    const body = route ? route[1](params) : {};
    if (body instanceof Error) throw body;
    return { body, statusCode: 200 };
  }
  bodies(pattern: RegExp) {
    return this.requests.filter((r) => pattern.test(`${r.method} ${r.path}`)).map((r) => r.body as any);
  }
}

const alice: LibraryRef = { tenantId: 'ten_A', endUserId: 'alice' };
const shared: LibraryRef = { tenantId: 'ten_A', endUserId: null };
const libraryFilter = (ref: LibraryRef) => [
  { term: { tenant_id: ref.tenantId } },
  { term: { library: ref.endUserId === null ? 'S' : `U#${ref.endUserId}` } },
];
const make = (transport: OpenSearchTransport) =>
  new OpenSearchSearchIndex(transport, { prefix: 'lib', dimensions: 16 });
const hit = (source: Record<string, unknown>, score = 1, sort?: unknown[]) => ({
  _id: 'x',
  _score: score,
  _source: source,
  sort,
});
const passageSource = (itemId: string) => ({
  item_id: itemId,
  kind: 'file_excerpt',
  title: 'T',
  source_ref: null,
  content_date: '2026-01-01T00:00:00.000000',
  ordinal: 0,
  line_start: 1,
  line_end: 2,
  text: 'hello',
});
const collect = async (iterable: AsyncIterable<GrepCandidate>) => {
  const out: GrepCandidate[] = [];
  for await (const c of iterable) out.push(c);
  return out;
};

/** An item document of the items index, as grep lists and reads it: document n is newer than n - 1. */
const grepDoc = (n: number, text: string) => ({
  item_id: `file_${String(n).padStart(26, '0')}`,
  title: 'T',
  source_ref: null,
  content_date: `2026-01-01T00:${String(Math.floor(n / 60)).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}.000000`,
  text,
  text_bytes: Buffer.byteLength(text) as number | undefined,
});
type GrepDoc = ReturnType<typeof grepDoc>;
/** A grep listing search (sorted), as opposed to a fetch of texts by id. */
const isListing = (body: any) => Array.isArray(body.sort);
/**
 * The items index answering grep's two searches as OpenSearch would: the
 * listing (resume filter, sort, search_after, size, _source) and the fetch of
 * texts by id (in no particular order).
 */
const grepLibrary = (docs: GrepDoc[]) => (r: OpenSearchRequest) => {
  const body = r.body as any;
  const filter: any[] = body.query.bool.filter;
  const pick = (d: GrepDoc) =>
    Object.fromEntries(
      (body._source as string[]).filter((f) => (d as any)[f] !== undefined).map((f) => [f, (d as any)[f]]),
    );
  const ids = filter.find((f) => f.terms?.item_id)?.terms.item_id as string[] | undefined;
  if (ids)
    return {
      hits: {
        hits: docs
          .filter((d) => ids.includes(d.item_id))
          .reverse()
          .map((d) => hit(pick(d))),
      },
    };
  const key = (d: GrepDoc) => `${d.content_date}|${d.item_id}`;
  const resume = filter.find((f) => f.bool?.should?.[0]?.range)?.bool.should;
  let listed = [...docs].sort((a, b) => (key(a) < key(b) ? 1 : -1));
  if (resume) {
    const date = resume[0].range.content_date.lt;
    const bound = resume[1].bool.filter[1].range.item_id;
    listed = listed.filter(
      (d) =>
        d.content_date < date ||
        (d.content_date === date && (bound.lte ? d.item_id <= bound.lte : d.item_id < bound.lt)),
    );
  }
  if (body.search_after) listed = listed.filter((d) => key(d) < `${body.search_after[0]}|${body.search_after[1]}`);
  return { hits: { hits: listed.slice(0, body.size).map((d) => hit(pick(d), 1, [d.content_date, d.item_id])) } };
};

describe('OpenSearchSearchIndex: the exact requests', () => {
  const replacing = (oldIsShort: boolean) =>
    new RecordingTransport([
      // The documents of the replaced item (the one search without a sort); the neighbour searches find none.
      [
        /_search$/,
        (r) =>
          (r.body as any).sort
            ? { hits: { hits: [] } }
            : {
                hits: {
                  hits: [
                    { _index: 'lib-items', _id: 'file_OLD', _source: oldIsShort ? { short_memory: true } : {} },
                    { _index: 'lib-passages', _id: 'file_OLD#0', _source: {} },
                  ],
                },
              },
      ],
      [/_bulk$/, () => ({ errors: false, items: [] })],
    ]);
  /** The item ids the neighbour searches of a put were about. */
  const windowsRead = (transport: RecordingTransport) =>
    new Set(
      transport
        .bodies(/_search$/)
        .filter((b) => b.sort)
        .map((b) => Object.values(b.query.bool.filter.find((f: any) => f.range).range.item_id)[0]),
    );

  it('a replacing put deletes the old versions by id in the same _bulk, after the new documents, then sweeps them in the library', async () => {
    const transport = replacing(false);
    const item = indexItem('new version', axisVector(16, 2));
    await make(transport).put(alice, item, undefined, { replaces: ['file_OLD', item.itemId] });
    const search = transport.bodies(/_search$/).find((b) => !b.sort);
    expect(search.query.bool.filter).toEqual([...libraryFilter(alice), { terms: { item_id: ['file_OLD'] } }]);
    // The old version was no short memory: no window is read around it, only around the new one.
    expect(windowsRead(transport)).toEqual(new Set([item.itemId]));
    const bulk = transport.requests.find((r) => r.path === '/_bulk')!;
    const actions = (bulk.bulkBody as Array<Record<string, { _id?: string }>>).filter(
      (line) => 'index' in line || 'delete' in line,
    );
    expect(actions.map((a) => Object.keys(a)[0])).toEqual(['index', 'index', 'delete', 'delete']);
    expect(actions.slice(2).map((a) => a.delete!._id)).toEqual(['file_OLD', 'file_OLD#0']);
    expect(bulk.querystring).toEqual({ refresh: 'wait_for' });
    const sweep = transport.bodies(/_delete_by_query$/).at(-1);
    expect(sweep.query.bool.filter).toEqual([...libraryFilter(alice), { terms: { item_id: ['file_OLD'] } }]);
  });

  it("a replaced short memory leaves its neighbours' contexts", async () => {
    const transport = replacing(true);
    const item = indexItem('new version', axisVector(16, 2));
    await make(transport).put(alice, item, undefined, { replaces: ['file_OLD'] });
    expect(windowsRead(transport)).toEqual(new Set([item.itemId, 'file_OLD']));
  });

  it('creates both indices once with the k-NN, BM25 and wildcard mappings, then bulk-indexes every passage with the library on it', async () => {
    const transport = new RecordingTransport([[/_bulk/, () => ({ errors: false, items: [] })]]);
    const index = make(transport);
    const item = indexItem('line one\nline two', axisVector(16, 2));
    await index.put(alice, item);
    await index.put(alice, indexItem('another', axisVector(16, 3)));

    const creates = transport.requests.filter((r) => r.method === 'PUT');
    expect(creates.map((r) => r.path)).toEqual(['/lib-passages-d16', '/lib-items']);
    const passages = creates[0]!.body as any;
    expect(passages.settings.index.knn).toBe(true);
    expect(passages.mappings.properties.embedding).toEqual({
      type: 'knn_vector',
      dimension: 16,
      method: {
        name: 'hnsw',
        engine: 'faiss',
        space_type: 'innerproduct',
        parameters: { m: 16, ef_construction: 128 },
      },
    });
    expect(passages.mappings.properties.title).toMatchObject({ type: 'text' });
    expect(passages.mappings.properties.text).toMatchObject({ type: 'text' });
    expect(passages.mappings.properties.tenant_id).toEqual({ type: 'keyword' });
    expect((creates[1]!.body as any).mappings.properties.grep).toEqual({ type: 'wildcard' });

    const bulk = transport.requests.find((r) => r.path === '/_bulk')!;
    expect(bulk.querystring).toEqual({ refresh: 'wait_for' });
    const docs = bulk.bulkBody!.filter((_, i) => i % 2 === 1) as any[];
    expect(docs.every((d) => d.tenant_id === 'ten_A' && d.library === 'U#alice' && d.item_id === item.itemId)).toBe(
      true,
    );
    expect(docs[0].grep).toEqual(['line one\nline two']);
    expect(docs[1].embedding).toHaveLength(16);
    // A replaced item's extra passages go first, in this library only.
    const stale = transport.bodies(/_delete_by_query/)[0];
    expect(stale.query.bool.filter).toEqual([
      ...libraryFilter(alice),
      { term: { item_id: item.itemId } },
      { range: { ordinal: { gte: 1 } } },
    ]);
  });

  it("records each item's text size in UTF-8 bytes (text_bytes), and adds the field to an items index made before it", async () => {
    const transport = new RecordingTransport([[/_bulk/, () => ({ errors: false, items: [] })]]);
    await make(transport).put(alice, indexItem('café ☕', axisVector(16, 2)));
    expect(
      (transport.requests.find((r) => r.path === '/lib-items')!.body as any).mappings.properties.text_bytes,
    ).toEqual({ type: 'long', index: false });
    expect((transport.requests.find((r) => r.path === '/_bulk')!.bulkBody![1] as any).text_bytes).toBe(
      Buffer.byteLength('café ☕'),
    );

    const existing = new RecordingTransport([
      [/^PUT \/lib-(items|passages-d16)$/, () => ({ error: { type: 'resource_already_exists_exception' } })],
      [/_bulk/, () => ({ errors: false, items: [] })],
    ]);
    await make(existing).put(alice, indexItem('x', axisVector(16, 2)));
    const mapping = existing.requests.find((r) => r.path === '/lib-items/_mapping')!;
    expect((mapping.body as any).properties.text_bytes).toEqual({ type: 'long', index: false });
  });

  it('filters the keyword leg by tenant, library and kinds, with the title boosted', async () => {
    const transport = new RecordingTransport([
      [/_search/, () => ({ hits: { hits: [hit(passageSource('file_1'), 3.5)] } })],
    ]);
    const hits = await make(transport).keywordSearch(shared, { text: 'zebra', limit: 7, kinds: ['file_excerpt'] });
    const [body] = transport.bodies(/POST \/lib-passages-d16\/_search/);
    expect(body.size).toBe(7);
    expect(body.query.bool.filter).toEqual([...libraryFilter(shared), { terms: { kind: ['file_excerpt'] } }]);
    expect(body.query.bool.should[0].multi_match).toMatchObject({
      query: 'zebra',
      fields: ['title^2', 'text'],
      _name: 'own',
    });
    // A short memory's neighbours' words (core/memory-context.ts) count, below its own.
    expect(body.query.bool.should[1].match.context).toEqual({
      query: 'zebra',
      boost: MEMORY_CONTEXT.weight,
      _name: 'context',
    });
    expect(body.query.bool.minimum_should_match).toBe(1);
    expect(hits).toEqual([
      expect.objectContaining({
        itemId: 'file_1',
        rawScore: 3.5,
        passage: { ordinal: 0, lineStart: 1, lineEnd: 2, text: 'hello' },
      }),
    ]);
    expect(hits[0]!.viaContext).toBeUndefined(); // a response that names no matched queries marks nothing
    expect(transport.requests.every((r) => r.method !== 'PUT')).toBe(true); // reads never create an index
  });

  it('sends a query of more than 32 terms as its 32 keyword terms (one clause per term and field), and a shorter one verbatim', async () => {
    const transport = new RecordingTransport([[/_search/, () => ({ hits: { hits: [] } })]]);
    const index = make(transport);
    const long = Array.from({ length: 140 }, (_, i) => `t${i.toString(36)}${'x'.repeat(i % 5)}`).join(' ');
    expect(long.length).toBeLessThanOrEqual(1000);
    await index.keywordSearch(shared, { text: long, limit: 5 });
    const question = 'Why did the harbour crane stop on Friday, and who fixed it?';
    await index.keywordSearch(shared, { text: question, limit: 5 });
    const [capped, verbatim] = transport.bodies(/_search/);
    const sent = capped.query.bool.should[0].multi_match.query as string;
    expect(sent).toBe(keywordTerms(long).join(' '));
    expect(sent.split(' ')).toHaveLength(MAX_QUERY_TERMS);
    expect(sent.split(' ').every((t) => t.endsWith('xxxx') || t.endsWith('xxx'))).toBe(true); // the longest ones
    expect(capped.query.bool.should[1].match.context.query).toBe(sent);
    expect(verbatim.query.bool.should[0].multi_match.query).toBe(question);
    expect(verbatim.query.bool.should[1].match.context.query).toBe(question);
  });

  it('marks a keyword hit that matched only its context', async () => {
    const transport = new RecordingTransport([
      [
        /_search/,
        () => ({
          hits: {
            hits: [
              { ...hit(passageSource('file_1'), 3), matched_queries: ['own', 'context'] },
              { ...hit(passageSource('file_2'), 1), matched_queries: ['context'] },
            ],
          },
        }),
      ],
    ]);
    const hits = await make(transport).keywordSearch(alice, { text: 'turtles', limit: 5 });
    expect(hits.map((h) => [h.itemId, !!h.viaContext])).toEqual([
      ['file_1', false],
      ['file_2', true],
    ]);
  });

  const minute = (m: number) => `file_${ulid(Date.UTC(2026, 10, 24, 9, m))}`;
  /** Scripted short memories of the library: the search for those before an id (desc) or after it (asc), as the adapter asks. */
  const library = (ids: string[], text: (id: string) => string) => (r: OpenSearchRequest) => {
    const { sort, query, size } = r.body as any;
    const range = query.bool.filter.find((f: any) => f.range)?.range.item_id ?? {};
    const order = sort[0].item_id;
    const picked = ids.filter((id) => (range.lt ? id < range.lt : true) && (range.gt ? id > range.gt : true));
    const listed = (order === 'desc' ? picked.reverse() : picked).slice(0, size);
    return { hits: { hits: listed.map((id) => hit({ item_id: id, text: text(id) })) } };
  };

  it("a short memory put writes its own context and its neighbours' in the same _bulk, from the library's short memories around it; a long document does not", async () => {
    const ids = [0, 1, 2, 3, 4, 5].map(minute);
    const item = indexItem('see you tomorrow!', axisVector(16, 2), { itemId: ids[4]! });
    const others = ids.filter((id) => id !== item.itemId);
    const transport = new RecordingTransport([
      [/POST \/lib-items\/_search/, library(others, (id) => `text of ${ids.indexOf(id)}`)],
      [/_bulk/, () => ({ errors: false, items: [] })],
    ]);
    await make(transport).put(alice, item);
    const [before, after] = transport.bodies(/POST \/lib-items\/_search/);
    expect(before.query.bool.filter).toEqual([
      ...libraryFilter(alice),
      { term: { short_memory: true } },
      { range: { item_id: { lt: item.itemId } } },
    ]);
    expect(before.size).toBe(2 * MEMORY_CONTEXT.neighbours);
    expect(after.query.bool.filter).toEqual([
      ...libraryFilter(alice),
      { term: { short_memory: true } },
      { range: { item_id: { gt: item.itemId } } },
    ]);
    const bulks = transport.requests.filter((r) => r.path === '/_bulk');
    expect(bulks).toHaveLength(1); // one request, one refresh (the window read again after it had not changed)
    const lines = bulks[0]!.bulkBody! as any[];
    expect(lines[1].short_memory).toBe(true);
    expect(lines[3].context).toBe('text of 3\ntext of 2\ntext of 5'); // the new memory's own passage
    const updates = lines.slice(4);
    // Those within reach of it, each with its own neighbours: text of 0 and 1 are out of reach, and unchanged.
    expect(updates.filter((_, i) => i % 2 === 0).map((u) => u.update)).toEqual(
      [ids[2], ids[3], ids[5]].map((id) => ({ _index: 'lib-passages-d16', _id: `${id}#0`, retry_on_conflict: 3 })),
    );
    expect(updates.filter((_, i) => i % 2 === 1).map((u) => u.doc.context)).toEqual([
      'text of 1\ntext of 0\ntext of 3\nsee you tomorrow!',
      'text of 2\ntext of 1\nsee you tomorrow!\ntext of 5',
      'see you tomorrow!\ntext of 3',
    ]);

    const long = new RecordingTransport([[/_bulk/, () => ({ errors: false, items: [] })]]);
    const text = 'one\ntwo';
    await make(long).put(
      alice,
      indexItem(text, axisVector(16, 2), {
        passages: [
          { ordinal: 0, lineStart: 1, lineEnd: 1, text: 'one' },
          { ordinal: 1, lineStart: 2, lineEnd: 2, text: 'two' },
        ],
        vectors: [axisVector(16, 2), axisVector(16, 3)],
      }),
    );
    expect(long.bodies(/lib-items\/_search/)).toEqual([]);
    expect((long.requests.find((r) => r.path === '/_bulk')!.bulkBody![1] as any).short_memory).toBe(false);
  });

  it('a put reads the window again after its bulk, and mends the contexts when a neighbour left meanwhile', async () => {
    const [a, b, c] = [0, 1, 2].map(minute);
    let library_ = [a!, b!];
    const transport = new RecordingTransport([
      [/POST \/lib-items\/_search/, (r) => library(library_, (id) => (id === a ? 'a' : 'b'))(r)],
      [
        /_bulk/,
        () => {
          library_ = [a!]; // b was removed while the put's bulk ran (its removal read the library before c was in it)
          return { errors: false, items: [] };
        },
      ],
    ]);
    await make(transport).put(alice, indexItem('c', axisVector(16, 2), { itemId: c! }));
    const [first, mend] = transport.requests.filter((r) => r.path === '/_bulk').map((r) => r.bulkBody as any[]);
    expect(first![3].context).toBe('b\na');
    expect(mend!.filter((_, i) => i % 2 === 1).map((u) => u.doc.context)).toEqual(['c', 'a']); // no word of b is left
  });

  it('a put whose neighbour was removed meanwhile still succeeds; any other refused document fails it', async () => {
    const [a, b] = [0, 1].map(minute);
    const refusing = (id: string) =>
      new RecordingTransport([
        [/POST \/lib-items\/_search/, library([a!], () => 'a')],
        [
          /_bulk/,
          () => ({
            errors: true,
            items: [{ update: { _id: id, status: 404, error: { type: 'document_missing_exception' } } }],
          }),
        ],
      ]);
    const item = indexItem('b', axisVector(16, 2), { itemId: b! });
    await expect(make(refusing(`${a}#0`)).put(alice, item)).resolves.toBeUndefined();
    await expect(make(refusing(`${b}#0`)).put(alice, item)).rejects.toThrow(/refused/);
  });

  it('a removal of a short memory rewrites the contexts of the memories around it; of anything else, reads nothing more', async () => {
    const [a, b, c] = [0, 1, 2].map(minute);
    const held = (shortMemory: boolean) => () => ({
      found: true,
      _source: { tenant_id: 'ten_A', library: 'U#alice', short_memory: shortMemory },
    });
    const transport = new RecordingTransport([
      [/GET \/lib-items\/_doc\//, held(true)],
      [/POST \/lib-items\/_search/, library([a!, c!], (id) => (id === a ? 'a' : 'c'))],
      [/_bulk/, () => ({ errors: false, items: [] })],
    ]);
    await make(transport).remove(alice, b!);
    const updates = transport.requests.find((r) => r.path === '/_bulk')!.bulkBody as any[];
    expect(updates.map((u) => u.update?._id ?? u.doc.context)).toEqual([`${a}#0`, 'c', `${c}#0`, 'a']);

    const other = new RecordingTransport([[/GET \/lib-items\/_doc\//, held(false)]]);
    await make(other).remove(alice, b!);
    expect(other.requests.filter((r) => r.path.endsWith('/_search') || r.path === '/_bulk')).toEqual([]);
  });

  it('filters the vector leg inside the k-NN search and again outside it, and turns scores back into cosines', async () => {
    const transport = new RecordingTransport([
      [/_search/, () => ({ hits: { hits: [hit(passageSource('file_1'), 1.8), hit(passageSource('file_2'), 0.5)] } })],
    ]);
    const hits = await make(transport).vectorSearch(alice, { vector: axisVector(16, 1), limit: 5 });
    const [body] = transport.bodies(/_search/);
    const knn = body.query.bool.must[0].knn.embedding;
    expect(knn.k).toBe(5);
    expect(knn.vector).toHaveLength(16);
    expect(knn.filter.bool.filter).toEqual(libraryFilter(alice));
    expect(body.query.bool.filter).toEqual(libraryFilter(alice));
    expect(hits.map((h) => h.rawScore)).toEqual([expect.closeTo(0.8, 6), expect.closeTo(-1, 6)]);
  });

  it("reads one document's text with a library-, kind- and id-filtered search", async () => {
    const transport = new RecordingTransport([
      [/_search/, () => ({ hits: { hits: [hit({ text: 'line one\nline two' })] } })],
    ]);
    expect(await make(transport).documentText(alice, 'file_1')).toBe('line one\nline two');
    const [request] = transport.requests;
    expect(request!.path).toBe('/lib-items/_search');
    expect((request!.body as any).query.bool.filter).toEqual([
      ...libraryFilter(alice),
      { terms: { kind: ['file_excerpt', 'image'] } },
      { term: { item_id: 'file_1' } },
    ]);
    const empty = new RecordingTransport([[/_search/, () => ({ hits: { hits: [] } })]]);
    expect(await make(empty).documentText(alice, 'file_2')).toBeNull();
  });

  it('lists grep candidates with an escaped wildcard query (ids and sizes only), resumes inclusively or after, and pages with search_after', async () => {
    const docs = Array.from({ length: 300 }, (_, n) => grepDoc(n, 'a*b'));
    const transport = new RecordingTransport([[/_search/, grepLibrary(docs)]]);
    const found = await collect(
      make(transport).grepCandidates(alice, {
        pattern: 'a*b?',
        caseSensitive: false,
        startAt: { createdAt: docs[290]!.content_date, id: docs[290]!.item_id },
      }),
    );
    expect(found.map((c) => c.itemId)).toEqual(
      docs
        .slice(0, 291)
        .reverse()
        .map((d) => d.item_id),
    );
    // A document written before metadata reads as none.
    expect(found[0]).toEqual({
      itemId: docs[290]!.item_id,
      title: 'T',
      sourceRef: null,
      contentDate: docs[290]!.content_date,
      text: 'a*b',
      metadata: {},
    });
    const [first, second] = transport.bodies(/_search/).filter(isListing);
    expect(first.size).toBe(256);
    expect(first._source).toEqual(['item_id', 'text_bytes']);
    expect(first.query.bool.filter).toEqual([
      ...libraryFilter(alice),
      { terms: { kind: ['file_excerpt', 'image'] } },
      { wildcard: { grep: { value: '*a\\*b\\?*', case_insensitive: true } } },
      {
        bool: {
          should: [
            { range: { content_date: { lt: docs[290]!.content_date } } },
            {
              bool: {
                filter: [
                  { term: { content_date: docs[290]!.content_date } },
                  { range: { item_id: { lte: docs[290]!.item_id } } },
                ],
              },
            },
          ],
          minimum_should_match: 1,
        },
      },
    ]);
    expect(first.sort).toEqual([{ content_date: 'desc' }, { item_id: 'desc' }]);
    expect(second.search_after).toEqual([docs[35]!.content_date, docs[35]!.item_id]);

    const afterOne = new RecordingTransport([[/_search/, grepLibrary(docs)]]);
    const resumed = await collect(
      make(afterOne).grepCandidates(alice, {
        pattern: 'a*b?',
        caseSensitive: true,
        startAfter: { createdAt: docs[5]!.content_date, id: docs[5]!.item_id },
      }),
    );
    expect(resumed.map((c) => c.itemId)).toEqual(
      docs
        .slice(0, 5)
        .reverse()
        .map((d) => d.item_id),
    );
    const resume = afterOne.bodies(/_search/)[0].query.bool.filter.at(-1);
    expect(resume.bool.should[1].bool.filter[1]).toEqual({ range: { item_id: { lt: docs[5]!.item_id } } });
  });

  it('fetches grep texts by id within the library, a few MiB a request, only the fields grep shows', async () => {
    const MiB = 1024 * 1024;
    const sizes = [1 * MiB, 2 * MiB, 1.5 * MiB, undefined, 10 * MiB, 10, 10];
    const docs = sizes.map((size, n) => ({ ...grepDoc(n, `text ${n}`), text_bytes: size }));
    const transport = new RecordingTransport([[/_search/, grepLibrary(docs)]]);
    const found = await collect(
      make(transport).grepCandidates(alice, { pattern: 'te', caseSensitive: false, generation: 'gen-1' }),
    );
    expect(found.map((c) => c.text)).toEqual(['text 6', 'text 5', 'text 4', 'text 3', 'text 2', 'text 1', 'text 0']);
    const fetches = transport.bodies(/_search/).filter((b) => !isListing(b));
    const id = (n: number) => docs[n]!.item_id;
    // Newest first: 10 + 10 bytes; 10 MiB alone; an unknown size alone; 1.5 + 2 MiB; then 1 MiB (1.5 + 2 + 1 is over 4 MiB).
    expect(fetches.map((b) => b.query.bool.filter.at(-1).terms.item_id)).toEqual([
      [id(6), id(5)],
      [id(4)],
      [id(3)],
      [id(2), id(1)],
      [id(0)],
    ]);
    for (const fetch of fetches) {
      expect(fetch._source).toEqual(['item_id', 'title', 'source_ref', 'content_date', 'text', 'metadata']);
      expect(fetch.size).toBe(fetch.query.bool.filter.at(-1).terms.item_id.length);
      expect(fetch.query.bool.filter.slice(0, -1)).toEqual([
        ...libraryFilter(alice),
        {
          bool: {
            should: [{ term: { generation: 'gen-1' } }, { bool: { must_not: [{ exists: { field: 'generation' } }] } }],
            minimum_should_match: 1,
          },
        },
        { terms: { kind: ['file_excerpt', 'image'] } },
      ]);
    }
    // The listing never reads a text, nor the grep segments.
    expect(
      JSON.stringify(
        transport
          .bodies(/_search/)
          .filter(isListing)
          .map((b) => b._source),
      ),
    ).not.toMatch(/"text"|grep/);
  });

  it('cuts listed candidates into fetch batches of at most 4 MiB and 64 documents; a larger or unknown one alone', () => {
    const listed = (sizes: Array<number | undefined>) =>
      sizes.map((size, n) => ({ item_id: `d${n}`, ...(size === undefined ? {} : { text_bytes: size }) }));
    expect(GREP_FETCH_BYTES).toBe(4 * 1024 * 1024);
    expect(fetchBatches(listed([GREP_FETCH_BYTES, 0, 1, GREP_FETCH_BYTES + 1, undefined, 0]))).toEqual([
      ['d0', 'd1'],
      ['d2'],
      ['d3'],
      ['d4'],
      ['d5'],
    ]);
    expect(fetchBatches(listed(Array.from({ length: 130 }, () => 1))).map((b) => b.length)).toEqual([64, 64, 2]);
    expect(fetchBatches(listed([-1, Number.NaN]))).toEqual([['d0'], ['d1']]);
    expect(fetchBatches([])).toEqual([]);
  });

  it('fetches no text the caller did not ask for: a grep that stops after one document made one listing and one fetch', async () => {
    const docs = Array.from({ length: 100 }, (_, n) => ({ ...grepDoc(n, 'zq'), text_bytes: 1024 * 1024 }));
    const transport = new RecordingTransport([[/_search/, grepLibrary(docs)]]);
    for await (const _ of make(transport).grepCandidates(alice, { pattern: 'zq', caseSensitive: false })) break;
    expect(
      transport.bodies(/_search/).map((b) => (isListing(b) ? 'list' : b.query.bool.filter.at(-1).terms.item_id.length)),
    ).toEqual(['list', 4]);
  });

  it('under GrepService, a page fetches at most its byte budget plus one fetch batch, and the pages still walk every line once', async () => {
    const MiB = 1024 * 1024;
    const text = `${'x'.repeat(MiB)}\nzq line`;
    const docs = Array.from({ length: 40 }, (_, n) => ({ ...grepDoc(n, text), text_bytes: Buffer.byteLength(text) }));
    const transport = new RecordingTransport([[/_search/, grepLibrary(docs)]]);
    const grep = new GrepService(
      { index: make(transport), documents: { libraryGeneration: async () => 'gen-1' } },
      { pageBytes: 8 * MiB, pageMs: 60_000, sliceMs: 20 },
    );
    const fetched = () =>
      transport
        .bodies(/_search/)
        .filter((b) => !isListing(b))
        .reduce((n, b) => n + b.query.bool.filter.at(-1).terms.item_id.length, 0) * Buffer.byteLength(text);
    const first = await grep.grep(alice, { pattern: 'zq', caseSensitive: false, limit: 200 });
    expect(first.items).toHaveLength(8);
    expect(first.hasMore).toBe(true);
    expect(fetched()).toBeLessThanOrEqual(8 * MiB + GREP_FETCH_BYTES);
    const lines: string[] = first.items.map((r) => r.file_id);
    let cursor = first.nextCursor;
    for (let pages = 1; cursor; pages++) {
      expect(pages).toBeLessThan(10);
      const before = fetched();
      const page = await grep.grep(alice, { pattern: 'zq', caseSensitive: false, limit: 200, cursor });
      expect(fetched() - before).toBeLessThanOrEqual(8 * MiB + GREP_FETCH_BYTES);
      lines.push(...page.items.map((r) => r.file_id));
      cursor = page.nextCursor;
    }
    expect(lines).toEqual([...docs].reverse().map((d) => d.item_id));
  });

  it('scans without the wildcard narrowing for a case-insensitive pattern outside ASCII (exhaustive grep)', async () => {
    const transport = new RecordingTransport([[/_search/, () => ({ hits: { hits: [] } })]]);
    await collect(make(transport).grepCandidates(alice, { pattern: 'Straße', caseSensitive: false }));
    expect(JSON.stringify(transport.bodies(/_search/)[0])).not.toContain('wildcard');
  });

  it('reads only the live generation (and untagged entries) on every read: keyword, inside and outside k-NN, grep, document text', async () => {
    const transport = new RecordingTransport([[/_search/, () => ({ hits: { hits: [] } })]]);
    const index = make(transport);
    const generation = 'gen-live';
    const live = {
      bool: {
        should: [{ term: { generation } }, { bool: { must_not: [{ exists: { field: 'generation' } }] } }],
        minimum_should_match: 1,
      },
    };
    await index.keywordSearch(alice, { text: 'zebra', limit: 7, kinds: ['chat'], generation });
    await index.vectorSearch(alice, { vector: axisVector(16, 1), limit: 5, generation });
    await collect(index.grepCandidates(alice, { pattern: 'Straße', caseSensitive: false, generation }));
    await index.documentText(alice, 'file_1', generation);
    const [keyword, vector, grep, text] = transport.bodies(/_search/);
    expect(keyword.query.bool.filter).toEqual([...libraryFilter(alice), live, { terms: { kind: ['chat'] } }]);
    expect(vector.query.bool.must[0].knn.embedding.filter.bool.filter).toEqual([...libraryFilter(alice), live]);
    expect(vector.query.bool.filter).toEqual([...libraryFilter(alice), live]);
    expect(grep.query.bool.filter).toEqual([
      ...libraryFilter(alice),
      live,
      { terms: { kind: ['file_excerpt', 'image'] } },
    ]);
    expect(text.query.bool.filter).toEqual([
      ...libraryFilter(alice),
      live,
      { terms: { kind: ['file_excerpt', 'image'] } },
      { term: { item_id: 'file_1' } },
    ]);
    // The same clause an erasure deletes by: what a read sees is exactly what the generation's erasure removes.
    await index.removeLibrary(alice, generation);
    expect(transport.bodies(/_delete_by_query$/)[0].query.bool.filter).toEqual([...libraryFilter(alice), live]);
  });

  it('erases a library from both indices and counts what it held by kind', async () => {
    const transport = new RecordingTransport([
      [
        /_search/,
        () => ({
          aggregations: {
            kinds: {
              buckets: [
                { key: 'file_excerpt', doc_count: 3 },
                { key: 'chat', doc_count: 2 },
              ],
            },
          },
        }),
      ],
    ]);
    const counts = await make(transport).removeLibrary(alice);
    expect(counts).toEqual({ file_excerpt: 3, image: 0, chat: 2, creation: 0 });
    const del = transport.requests.find((r) => r.path.endsWith('_delete_by_query'))!;
    expect(del.path).toBe('/lib-passages-d16,lib-items/_delete_by_query');
    expect((del.body as any).query.bool.filter).toEqual(libraryFilter(alice));
    expect(del.querystring).toMatchObject({ refresh: true, conflicts: 'proceed', ignore_unavailable: true });
  });

  it('turns throttling, 5xx and connection failures into BackendUnavailableError, and leaves other errors alone', async () => {
    const failWith = (error: unknown) => make(new RecordingTransport([[/_search/, () => error]]));
    const responseError = (status: number) =>
      Object.assign(new Error('response'), { name: 'ResponseError', statusCode: status, meta: { statusCode: status } });
    await expect(failWith(responseError(429)).keywordSearch(alice, { text: 'x', limit: 1 })).rejects.toBeInstanceOf(
      BackendUnavailableError,
    );
    await expect(failWith(responseError(503)).keywordSearch(alice, { text: 'x', limit: 1 })).rejects.toBeInstanceOf(
      BackendUnavailableError,
    );
    await expect(
      failWith(Object.assign(new Error('down'), { name: 'ConnectionError' })).keywordSearch(alice, {
        text: 'x',
        limit: 1,
      }),
    ).rejects.toBeInstanceOf(BackendUnavailableError);
    await expect(failWith(responseError(400)).keywordSearch(alice, { text: 'x', limit: 1 })).rejects.toMatchObject({
      name: 'ResponseError',
    });
    const throttledBulk = make(
      new RecordingTransport([
        [
          /_bulk/,
          () => ({
            errors: true,
            items: [{ index: { status: 429, error: { type: 'es_rejected_execution_exception' } } }],
          }),
        ],
      ]),
    );
    await expect(throttledBulk.put(alice, indexItem('x', axisVector(16, 1)))).rejects.toBeInstanceOf(
      BackendUnavailableError,
    );
  });
});

describe('OpenSearchSearchIndex: vectors attached after the words (the ingest worker)', () => {
  const bulkOk = () => ({ errors: false, items: [] });
  const itemDoc = (ref: LibraryRef) => ({
    found: true,
    _source: { tenant_id: ref.tenantId, library: ref.endUserId === null ? 'S' : `U#${ref.endUserId}` },
  });

  it('indexes the passages of an item put without vectors with no embedding field (the mapping does not require one)', async () => {
    const transport = new RecordingTransport([[/_bulk/, bulkOk]]);
    const item = indexItem('one\ntwo', axisVector(16, 1), {
      passages: [
        { ordinal: 0, lineStart: 1, lineEnd: 1, text: 'one' },
        { ordinal: 1, lineStart: 2, lineEnd: 2, text: 'two' },
      ],
      vectors: [],
    });
    await make(transport).put(alice, item);
    const bulk = transport.requests.find((r) => r.path === '/_bulk')!;
    const actions = bulk.bulkBody!.filter((_, i) => i % 2 === 0) as any[];
    const docs = bulk.bulkBody!.filter((_, i) => i % 2 === 1) as any[];
    expect(actions.slice(1).map((a) => a.index._id)).toEqual([`${item.itemId}#0`, `${item.itemId}#1`]);
    expect(docs.slice(1).every((d) => !('embedding' in d) && d.tenant_id === 'ten_A' && d.library === 'U#alice')).toBe(
      true,
    );
    const mapping = transport.requests.find((r) => r.method === 'PUT' && r.path === '/lib-passages-d16')!.body as any;
    expect(mapping.mappings.properties.embedding.type).toBe('knn_vector'); // optional, like every field of a strict mapping
    await expect(make(transport).put(alice, { ...item, vectors: [axisVector(16, 1)] })).rejects.toThrow(
      /one vector per passage/,
    );
  });

  it('asks for the passages without a vector, lowest ordinal first, in the library only, leaving out those in flight', async () => {
    const transport = new RecordingTransport([
      [
        /_search/,
        () => ({
          hits: {
            hits: [
              hit({ ordinal: 2, line_start: 3, line_end: 4, text: 'c' }),
              hit({ ordinal: 5, line_start: 9, line_end: 9, text: 'f' }),
            ],
          },
        }),
      ],
    ]);
    const passages = await make(transport).passagesWithoutVectors(alice, 'file_1', { limit: 8, skip: new Set([0, 1]) });
    expect(passages).toEqual([
      { ordinal: 2, lineStart: 3, lineEnd: 4, text: 'c' },
      { ordinal: 5, lineStart: 9, lineEnd: 9, text: 'f' },
    ]);
    const [request] = transport.requests;
    expect(request!.path).toBe('/lib-passages-d16/_search');
    const body = request!.body as any;
    expect(body.size).toBe(8);
    expect(body.sort).toEqual([{ ordinal: 'asc' }]);
    expect(body.query.bool.filter).toEqual([...libraryFilter(alice), { term: { item_id: 'file_1' } }]);
    expect(body.query.bool.must_not).toEqual([{ exists: { field: 'embedding' } }, { terms: { ordinal: [0, 1] } }]);
    expect(body._source).not.toContain('embedding');
    await make(transport).passagesWithoutVectors(alice, 'file_1', { limit: 4 });
    expect((transport.requests[1]!.body as any).query.bool.must_not).toEqual([{ exists: { field: 'embedding' } }]);
  });

  it('attaches vectors by partial updates of the passage documents by id, once the library is found to hold the item', async () => {
    const transport = new RecordingTransport([
      [/GET \/lib-items\/_doc\//, () => itemDoc(alice)],
      [/_bulk/, bulkOk],
    ]);
    expect(
      await make(transport).attachPassageVectors(alice, 'file_1', [
        { ordinal: 0, vector: axisVector(16, 1) },
        { ordinal: 3, vector: axisVector(16, 2) },
      ]),
    ).toBe(true);
    const [get, bulk] = transport.requests;
    expect(get).toMatchObject({ method: 'GET', path: '/lib-items/_doc/file_1' });
    expect(bulk!.querystring).toEqual({ refresh: 'wait_for' });
    expect(bulk!.bulkBody!.filter((_, i) => i % 2 === 0)).toEqual([
      { update: { _index: 'lib-passages-d16', _id: 'file_1#0', retry_on_conflict: 3 } },
      { update: { _index: 'lib-passages-d16', _id: 'file_1#3', retry_on_conflict: 3 } },
    ]);
    const docs = bulk!.bulkBody!.filter((_, i) => i % 2 === 1) as any[];
    expect(docs.map((d) => Object.keys(d))).toEqual([['doc'], ['doc']]);
    expect(docs.map((d) => Object.keys(d.doc))).toEqual([['embedding'], ['embedding']]);
    expect(docs[0].doc.embedding).toHaveLength(16);
  });

  it('writes nothing and answers false when the item is gone, or belongs to another library', async () => {
    for (const answer of [{ found: false }, itemDoc(shared), itemDoc({ tenantId: 'ten_B', endUserId: 'alice' })]) {
      const transport = new RecordingTransport([
        [/GET \/lib-items\/_doc\//, () => answer],
        [/_bulk/, bulkOk],
      ]);
      expect(
        await make(transport).attachPassageVectors(alice, 'file_1', [{ ordinal: 0, vector: axisVector(16, 1) }]),
      ).toBe(false);
      expect(transport.requests.some((r) => r.path === '/_bulk')).toBe(false);
    }
  });

  it('answers false when an erasure removed the item while its vectors were written, and refuses a passage the item lacks', async () => {
    let gets = 0;
    const missing = {
      errors: true,
      items: [{ update: { _id: 'file_1#0', status: 404, error: { type: 'document_missing_exception' } } }],
    };
    const erased = new RecordingTransport([
      [/GET \/lib-items\/_doc\//, () => (gets++ === 0 ? itemDoc(alice) : { found: false })],
      [/_bulk/, () => missing],
    ]);
    expect(await make(erased).attachPassageVectors(alice, 'file_1', [{ ordinal: 0, vector: axisVector(16, 1) }])).toBe(
      false,
    );
    const noPassage = new RecordingTransport([
      [/GET \/lib-items\/_doc\//, () => itemDoc(alice)],
      [/_bulk/, () => missing],
    ]);
    await expect(
      make(noPassage).attachPassageVectors(alice, 'file_1', [{ ordinal: 0, vector: axisVector(16, 1) }]),
    ).rejects.toThrow(/has no passage 0/);
    const throttled = new RecordingTransport([
      [/GET \/lib-items\/_doc\//, () => itemDoc(alice)],
      [
        /_bulk/,
        () => ({
          errors: true,
          items: [{ update: { _id: 'file_1#0', status: 429, error: { type: 'es_rejected_execution_exception' } } }],
        }),
      ],
    ]);
    await expect(
      make(throttled).attachPassageVectors(alice, 'file_1', [{ ordinal: 0, vector: axisVector(16, 1) }]),
    ).rejects.toBeInstanceOf(BackendUnavailableError);
  });

  it('deletes again when a vector was attached during the delete, so an erasure leaves no passage behind', async () => {
    let passes = 0;
    const transport = new RecordingTransport([
      [/_delete_by_query/, () => ({ deleted: 3, version_conflicts: passes++ === 0 ? 1 : 0 })],
    ]);
    await make(transport).remove(alice, 'file_1');
    expect(transport.requests.filter((r) => r.path.endsWith('_delete_by_query'))).toHaveLength(2);
    const stuck = new RecordingTransport([[/_delete_by_query/, () => ({ version_conflicts: 1 })]]);
    await expect(make(stuck).remove(alice, 'file_1')).rejects.toBeInstanceOf(BackendUnavailableError);
  });
});

const url = process.env.OPENSEARCH_URL;
if (!url) console.log('OpenSearch contract suite against a real cluster: not run (set OPENSEARCH_URL to run it)');

describe.runIf(!!url)('OpenSearch adapter against a real cluster (OPENSEARCH_URL)', () => {
  const client = new Client({ node: url ?? 'http://127.0.0.1:9200' });
  const prefix = `contract-${Date.now().toString(36)}`;
  searchIndexContract(
    `OpenSearch at ${url}`,
    async (dimensions) =>
      new OpenSearchSearchIndex(client.transport as unknown as OpenSearchTransport, { prefix, dimensions }),
  );
});

describe('OpenSearchSearchIndex: metadata, filters and PATCH', () => {
  const bulkOk = () => ({ errors: false, items: [] });
  const held = (ref: LibraryRef) => () => ({
    found: true,
    _source: { tenant_id: ref.tenantId, library: ref.endUserId === null ? 'S' : `U#${ref.endUserId}` },
  });
  const filter = parseFilter({
    and: [{ 'metadata.project': 'apollo' }, { 'metadata.year': { gte: 2020 } }, { not: { kind: 'image' } }],
  });
  const translated = filterQuery(filter);

  it('maps metadata in a fixed set of fields: documents of many tenants with 32 keys each need no field the mapping lacks', async () => {
    const transport = new RecordingTransport([[/_bulk/, bulkOk]]);
    const index = make(transport);
    for (const tenant of ['ten_A', 'ten_B', 'ten_C']) {
      const metadata: Metadata = Object.fromEntries(
        Array.from({ length: 32 }, (_, k) => [
          `${tenant}_key_${k}`,
          k % 3 === 0 ? k : k % 3 === 1 ? `v${k}` : [`a${k}`, 'b'],
        ]),
      );
      await index.put(
        { tenantId: tenant, endUserId: null },
        indexItem('text', axisVector(16, 1), { metadata, documentKind: 'text', contentType: 'text/plain' }),
      );
    }
    const [passages, items] = transport.requests.filter((r) => r.method === 'PUT').map((r) => (r.body as any).mappings);
    for (const mapping of [passages, items]) {
      expect(mapping.dynamic).toBe('strict');
      expect(mapping.properties).toMatchObject(FILTER_FIELDS);
      expect(mapping.properties.metadata).toEqual({ type: 'object', enabled: false }); // kept, never parsed: adds no field
    }
    expect(Object.keys(passages.properties).length).toBeLessThan(40);
    expect(Object.keys(items.properties).length).toBeLessThan(40);
    // Every field of every document written is one of the mapping's (a strict mapping would refuse any other).
    const bulks = transport.requests.filter((r) => r.path === '/_bulk');
    expect(bulks).toHaveLength(3);
    for (const bulk of bulks) {
      const lines = bulk.bulkBody as any[];
      for (let i = 0; i < lines.length; i += 2) {
        const mapping = lines[i].index._index === 'lib-items' ? items : passages;
        expect(Object.keys(lines[i + 1]).filter((f) => !(f in mapping.properties))).toEqual([]);
      }
    }
  });

  it('writes the filter fields on the item document and every passage document; a chat gets none but its kind', async () => {
    const transport = new RecordingTransport([[/_bulk/, bulkOk]]);
    const item = indexItem('one\ntwo', axisVector(16, 1), {
      sourceRef: 'notes/a.md',
      metadata: { tags: ['x', 'y'], year: 2026 },
      documentKind: 'file',
      contentType: 'application/pdf',
      passages: [
        { ordinal: 0, lineStart: 1, lineEnd: 1, text: 'one' },
        { ordinal: 1, lineStart: 2, lineEnd: 2, text: 'two' },
      ],
      vectors: [axisVector(16, 1), axisVector(16, 2)],
    });
    await make(transport).put(alice, item);
    const docs = transport.requests.find((r) => r.path === '/_bulk')!.bulkBody!.filter((_, i) => i % 2 === 1) as any[];
    expect(docs).toHaveLength(3);
    for (const doc of docs) {
      expect(doc).toMatchObject({
        metadata: { tags: ['x', 'y'], year: 2026 },
        meta_keys: ['tags', 'year'],
        meta_types: ['tags\0s', 'year\0n'],
        title_kw: 'A title',
        source_ref_kw: 'notes/a.md',
        doc_kind: 'file',
        content_type: 'application/pdf',
        kind: 'file_excerpt',
      });
      expect(doc.meta_kv).toHaveLength(3);
    }
    const chat = new RecordingTransport([
      [/_bulk/, bulkOk],
      [/_search/, () => ({ hits: { hits: [] } })],
    ]);
    await make(chat).put(
      alice,
      indexItem('hello there, how are you today?', axisVector(16, 1), { kind: 'chat', title: null }),
    );
    const chatDoc = chat.requests.find((r) => r.path === '/_bulk')!.bulkBody![1] as any;
    expect(chatDoc).toMatchObject({ kind: 'chat', metadata: {}, meta_keys: [], meta_types: [], meta_kv: [] });
    expect(['title_kw', 'source_ref_kw', 'doc_kind', 'content_type'].filter((f) => f in chatDoc)).toEqual([]);
  });

  it('adds the filter fields to the mapping of indices made before them, both of them', async () => {
    const existing = new RecordingTransport([
      [/^PUT \/lib-(items|passages-d16)$/, () => ({ error: { type: 'resource_already_exists_exception' } })],
      [/_bulk/, bulkOk],
    ]);
    await make(existing).put(alice, indexItem('x', axisVector(16, 2)));
    for (const index of ['lib-passages-d16', 'lib-items']) {
      const mapping = existing.requests.find((r) => r.method === 'PUT' && r.path === `/${index}/_mapping`)!;
      expect((mapping.body as any).properties).toMatchObject(FILTER_FIELDS);
    }
  });

  it('filters the keyword leg in its bool filter, and the vector leg inside the k-NN query (not after it)', async () => {
    const transport = new RecordingTransport([[/_search/, () => ({ hits: { hits: [] } })]]);
    const index = make(transport);
    await index.keywordSearch(alice, { text: 'zebra', limit: 7, kinds: ['file_excerpt'], filter });
    await index.vectorSearch(alice, { vector: axisVector(16, 1), limit: 5, filter });
    const [keyword, vector] = transport.bodies(/_search/);
    expect(keyword.query.bool.filter).toEqual([
      ...libraryFilter(alice),
      { terms: { kind: ['file_excerpt'] } },
      translated,
    ]);
    expect(keyword.post_filter).toBeUndefined();
    const knn = vector.query.bool.must[0].knn.embedding;
    expect(knn.k).toBe(5);
    expect(knn.filter.bool.filter).toEqual([...libraryFilter(alice), translated]);
    // The outer filter stays the library's lock only: a filter there would drop some of the k nearest.
    expect(vector.query.bool.filter).toEqual(libraryFilter(alice));
    expect(vector.post_filter).toBeUndefined();
    // Without a filter, nothing more than before.
    await index.keywordSearch(alice, { text: 'zebra', limit: 7 });
    expect(transport.bodies(/_search/)[2].query.bool.filter).toEqual(libraryFilter(alice));
  });

  it("filters grep's listing and its fetches of texts, and returns each candidate's metadata", async () => {
    const docs = [grepDoc(1, 'zq one'), grepDoc(2, 'zq two')].map((d, i) => ({
      ...d,
      metadata: i ? {} : { project: 'apollo' },
    }));
    const transport = new RecordingTransport([[/_search/, grepLibrary(docs as any)]]);
    const candidates = await collect(
      make(transport).grepCandidates(alice, { pattern: 'zq', caseSensitive: false, filter }),
    );
    const [listing, fetch] = transport.bodies(/_search/);
    expect(listing.query.bool.filter).toContainEqual(translated);
    expect(fetch.query.bool.filter).toContainEqual(translated);
    expect(fetch._source).toContain('metadata');
    expect(candidates.map((c) => c.metadata)).toEqual([{}, { project: 'apollo' }]);
  });

  it("returns each hit's metadata ({} for a document written before metadata), and no derived filter field is read back", async () => {
    const transport = new RecordingTransport([
      [
        /_search/,
        () => ({
          hits: { hits: [hit({ ...passageSource('file_1'), metadata: { a: 1 } }), hit(passageSource('file_2'))] },
        }),
      ],
    ]);
    const hits = await make(transport).keywordSearch(alice, { text: 'hello', limit: 5 });
    expect(hits.map((h) => h.metadata)).toEqual([{ a: 1 }, {}]);
    expect(transport.bodies(/_search/)[0]._source.excludes).toEqual(
      expect.arrayContaining(['embedding', 'meta_kv', 'meta_keys', 'meta_types', 'title_kw', 'source_ref_kw']),
    );
  });

  it('updateItem rewrites title, source_ref and metadata on the item and all its passages by one update-by-query, refreshed', async () => {
    const transport = new RecordingTransport([
      [/GET \/lib-items\/_doc\//, held(alice)],
      [/_update_by_query/, () => ({ total: 4, updated: 4, version_conflicts: 0 })],
    ]);
    expect(
      await make(transport).updateItem(alice, 'file_1', {
        title: 'New',
        sourceRef: null,
        metadata: { year: 2027, tags: ['a'] },
      }),
    ).toBe(true);
    const [get] = transport.requests;
    expect(get).toMatchObject({ method: 'GET', path: '/lib-items/_doc/file_1' });
    const update = transport.requests.find((r) => r.path.endsWith('_update_by_query'));
    expect(update).toMatchObject({ method: 'POST', path: '/lib-items,lib-passages-d16/_update_by_query' });
    // The indices (and an older index's new fields) are ensured before the write: their mapping is strict.
    expect(transport.requests.slice(1, 3).map((r) => `${r.method} ${r.path}`)).toEqual([
      'PUT /lib-passages-d16',
      'PUT /lib-items',
    ]);
    expect(update!.querystring).toEqual({ refresh: true, conflicts: 'proceed', ignore_unavailable: true });
    const body = update!.body as any;
    expect(body.query.bool.filter).toEqual([...libraryFilter(alice), { term: { item_id: 'file_1' } }]);
    expect(body.script.lang).toBe('painless');
    expect(body.script.source).toContain("params['set']");
    expect(body.script.params).toEqual({
      set: {
        title: 'New',
        title_kw: 'New',
        source_ref: null,
        metadata: { year: 2027, tags: ['a'] },
        meta_keys: ['year', 'tags'],
        meta_types: ['year\0n', 'tags\0s'],
        meta_kv: [expect.stringMatching(/^year\0n\0[0-9a-f]{16}$/), 'tags\0s\0a'],
      },
      remove: ['source_ref_kw'],
    });
    // Only what changes is written: the texts, vectors and contexts are left alone.
    const only = new RecordingTransport([
      [/GET \/lib-items\/_doc\//, held(alice)],
      [/_update_by_query/, () => ({ total: 2, updated: 2 })],
    ]);
    await make(only).updateItem(alice, 'file_1', { sourceRef: 'web/x' });
    expect(only.bodies(/_update_by_query/)[0].script.params).toEqual({
      set: { source_ref: 'web/x', source_ref_kw: 'web/x' },
      remove: [],
    });
  });

  it('updateItem answers false and writes nothing for an item the library does not hold; runs again on version conflicts', async () => {
    for (const answer of [{ found: false }, held(shared)(), held({ tenantId: 'ten_B', endUserId: 'alice' })()]) {
      const transport = new RecordingTransport([[/GET \/lib-items\/_doc\//, () => answer]]);
      expect(await make(transport).updateItem(alice, 'file_1', { title: 'x' })).toBe(false);
      expect(transport.requests.filter((r) => r.path.endsWith('_update_by_query'))).toEqual([]);
    }
    // Removed between the check and the update: nothing matched.
    const gone = new RecordingTransport([
      [/GET \/lib-items\/_doc\//, held(alice)],
      [/_update_by_query/, () => ({ total: 0, updated: 0 })],
    ]);
    expect(await make(gone).updateItem(alice, 'file_1', { title: 'x' })).toBe(false);
    // A vector attached meanwhile: the update runs again until no document was skipped.
    let passes = 0;
    const racing = new RecordingTransport([
      [/GET \/lib-items\/_doc\//, held(alice)],
      [/_update_by_query/, () => ({ total: 3, updated: 2, version_conflicts: passes++ < 2 ? 1 : 0 })],
    ]);
    expect(await make(racing).updateItem(alice, 'file_1', { metadata: {} })).toBe(true);
    expect(racing.bodies(/_update_by_query/)).toHaveLength(3);
    const stuck = new RecordingTransport([
      [/GET \/lib-items\/_doc\//, held(alice)],
      [/_update_by_query/, () => ({ total: 3, version_conflicts: 1 })],
    ]);
    await expect(make(stuck).updateItem(alice, 'file_1', { metadata: {} })).rejects.toBeInstanceOf(
      BackendUnavailableError,
    );
    const refused = new RecordingTransport([
      [/GET \/lib-items\/_doc\//, held(alice)],
      [
        /_update_by_query/,
        () => ({ total: 3, updated: 2, failures: [{ cause: { type: 'strict_dynamic_mapping_exception' } }] }),
      ],
    ]);
    await expect(make(refused).updateItem(alice, 'file_1', { title: 'x' })).rejects.toThrow(
      /1 documents refused \(strict_dynamic_mapping_exception\)/,
    );
    // Nothing to change: the check only.
    const nothing = new RecordingTransport([[/GET \/lib-items\/_doc\//, held(alice)]]);
    expect(await make(nothing).updateItem(alice, 'file_1', {})).toBe(true);
    expect(nothing.requests).toHaveLength(1);
  });
});

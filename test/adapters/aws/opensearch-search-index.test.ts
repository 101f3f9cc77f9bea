import { Client } from '@opensearch-project/opensearch';
import { describe, expect, it } from 'vitest';
import {
  OpenSearchSearchIndex,
  type OpenSearchRequest,
  type OpenSearchTransport,
} from '../../../lambdas/adapters/aws/opensearch-search-index.js';
import { BackendUnavailableError } from '../../../lambdas/core/errors.js';
import type { GrepCandidate, LibraryRef } from '../../../lambdas/core/model.js';
import { searchIndexContract } from '../../contract/search-index.contract.js';
import { axisVector, indexItem } from '../../contract/fixtures.js';

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
const libraryFilter = (ref: LibraryRef) => [{ term: { tenant_id: ref.tenantId } }, { term: { library: ref.endUserId === null ? 'S' : `U#${ref.endUserId}` } }];
const make = (transport: OpenSearchTransport) => new OpenSearchSearchIndex(transport, { prefix: 'lib', dimensions: 16 });
const hit = (source: Record<string, unknown>, score = 1, sort?: unknown[]) => ({ _id: 'x', _score: score, _source: source, sort });
const passageSource = (itemId: string) => ({
  item_id: itemId, kind: 'file_excerpt', title: 'T', source_ref: null, content_date: '2026-01-01T00:00:00.000000',
  ordinal: 0, line_start: 1, line_end: 2, text: 'hello',
});
const collect = async (iterable: AsyncIterable<GrepCandidate>) => {
  const out: GrepCandidate[] = [];
  for await (const c of iterable) out.push(c);
  return out;
};

describe('OpenSearchSearchIndex: the exact requests', () => {
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
      method: { name: 'hnsw', engine: 'faiss', space_type: 'innerproduct', parameters: { m: 16, ef_construction: 128 } },
    });
    expect(passages.mappings.properties.title).toMatchObject({ type: 'text' });
    expect(passages.mappings.properties.text).toMatchObject({ type: 'text' });
    expect(passages.mappings.properties.tenant_id).toEqual({ type: 'keyword' });
    expect((creates[1]!.body as any).mappings.properties.grep).toEqual({ type: 'wildcard' });

    const bulk = transport.requests.find((r) => r.path === '/_bulk')!;
    expect(bulk.querystring).toEqual({ refresh: 'wait_for' });
    const docs = bulk.bulkBody!.filter((_, i) => i % 2 === 1) as any[];
    expect(docs.every((d) => d.tenant_id === 'ten_A' && d.library === 'U#alice' && d.item_id === item.itemId)).toBe(true);
    expect(docs[0].grep).toEqual(['line one\nline two']);
    expect(docs[1].embedding).toHaveLength(16);
    // A replaced item's extra passages go first, in this library only.
    const stale = transport.bodies(/_delete_by_query/)[0];
    expect(stale.query.bool.filter).toEqual([...libraryFilter(alice), { term: { item_id: item.itemId } }, { range: { ordinal: { gte: 1 } } }]);
  });

  it('filters the keyword leg by tenant, library and kinds, with the title boosted', async () => {
    const transport = new RecordingTransport([[/_search/, () => ({ hits: { hits: [hit(passageSource('file_1'), 3.5)] } })]]);
    const hits = await make(transport).keywordSearch(shared, { text: 'zebra', limit: 7, kinds: ['file_excerpt'] });
    const [body] = transport.bodies(/POST \/lib-passages-d16\/_search/);
    expect(body.size).toBe(7);
    expect(body.query.bool.filter).toEqual([...libraryFilter(shared), { terms: { kind: ['file_excerpt'] } }]);
    expect(body.query.bool.must[0].multi_match).toMatchObject({ query: 'zebra', fields: ['title^2', 'text'] });
    expect(hits).toEqual([
      expect.objectContaining({ itemId: 'file_1', rawScore: 3.5, passage: { ordinal: 0, lineStart: 1, lineEnd: 2, text: 'hello' } }),
    ]);
    expect(transport.requests.every((r) => r.method !== 'PUT')).toBe(true); // reads never create an index
  });

  it('filters the vector leg inside the k-NN search and again outside it, and turns scores back into cosines', async () => {
    const transport = new RecordingTransport([[/_search/, () => ({ hits: { hits: [hit(passageSource('file_1'), 1.8), hit(passageSource('file_2'), 0.5)] } })]]);
    const hits = await make(transport).vectorSearch(alice, { vector: axisVector(16, 1), limit: 5 });
    const [body] = transport.bodies(/_search/);
    const knn = body.query.bool.must[0].knn.embedding;
    expect(knn.k).toBe(5);
    expect(knn.vector).toHaveLength(16);
    expect(knn.filter.bool.filter).toEqual(libraryFilter(alice));
    expect(body.query.bool.filter).toEqual(libraryFilter(alice));
    expect(hits.map((h) => h.rawScore)).toEqual([expect.closeTo(0.8, 6), expect.closeTo(-1, 6)]);
  });

  it('reads one document\'s text with a library-, kind- and id-filtered search', async () => {
    const transport = new RecordingTransport([[/_search/, () => ({ hits: { hits: [hit({ text: 'line one\nline two' })] } })]]);
    expect(await make(transport).documentText(alice, 'file_1')).toBe('line one\nline two');
    const [request] = transport.requests;
    expect(request!.path).toBe('/lib-items/_search');
    expect((request!.body as any).query.bool.filter).toEqual([...libraryFilter(alice), { terms: { kind: ['file_excerpt', 'image'] } }, { term: { item_id: 'file_1' } }]);
    const empty = new RecordingTransport([[/_search/, () => ({ hits: { hits: [] } })]]);
    expect(await make(empty).documentText(alice, 'file_2')).toBeNull();
  });

  it('narrows grep with an escaped wildcard query, resumes inclusively, and pages with search_after', async () => {
    let page = 0;
    const doc = (n: number) => hit({ item_id: `file_${n}`, title: null, source_ref: null, content_date: `2026-01-0${n % 9}`, text: 'a*b' }, 1, [`d${n}`, `file_${n}`]);
    const transport = new RecordingTransport([[/_search/, () => ({ hits: { hits: page++ === 0 ? Array.from({ length: 16 }, (_, i) => doc(i)) : [doc(99)] } })]]);
    const found = await collect(make(transport).grepCandidates(alice, { pattern: 'a*b?', caseSensitive: false, startAt: { createdAt: 'C', id: 'I' } }));
    expect(found).toHaveLength(17);
    const [first, second] = transport.bodies(/_search/);
    expect(first.query.bool.filter).toEqual([
      ...libraryFilter(alice),
      { terms: { kind: ['file_excerpt', 'image'] } },
      { wildcard: { grep: { value: '*a\\*b\\?*', case_insensitive: true } } },
      {
        bool: {
          should: [{ range: { content_date: { lt: 'C' } } }, { bool: { filter: [{ term: { content_date: 'C' } }, { range: { item_id: { lte: 'I' } } }] } }],
          minimum_should_match: 1,
        },
      },
    ]);
    expect(first.sort).toEqual([{ content_date: 'desc' }, { item_id: 'desc' }]);
    expect(second.search_after).toEqual(['d15', 'file_15']);
  });

  it('scans without the wildcard narrowing for a case-insensitive pattern outside ASCII (exhaustive grep)', async () => {
    const transport = new RecordingTransport([[/_search/, () => ({ hits: { hits: [] } })]]);
    await collect(make(transport).grepCandidates(alice, { pattern: 'Straße', caseSensitive: false }));
    expect(JSON.stringify(transport.bodies(/_search/)[0])).not.toContain('wildcard');
  });

  it('erases a library from both indices and counts what it held by kind', async () => {
    const transport = new RecordingTransport([
      [/_search/, () => ({ aggregations: { kinds: { buckets: [{ key: 'file_excerpt', doc_count: 3 }, { key: 'chat', doc_count: 2 }] } } })],
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
    const responseError = (status: number) => Object.assign(new Error('response'), { name: 'ResponseError', statusCode: status, meta: { statusCode: status } });
    await expect(failWith(responseError(429)).keywordSearch(alice, { text: 'x', limit: 1 })).rejects.toBeInstanceOf(BackendUnavailableError);
    await expect(failWith(responseError(503)).keywordSearch(alice, { text: 'x', limit: 1 })).rejects.toBeInstanceOf(BackendUnavailableError);
    await expect(failWith(Object.assign(new Error('down'), { name: 'ConnectionError' })).keywordSearch(alice, { text: 'x', limit: 1 })).rejects.toBeInstanceOf(BackendUnavailableError);
    await expect(failWith(responseError(400)).keywordSearch(alice, { text: 'x', limit: 1 })).rejects.toMatchObject({ name: 'ResponseError' });
    const throttledBulk = make(new RecordingTransport([[/_bulk/, () => ({ errors: true, items: [{ index: { status: 429, error: { type: 'es_rejected_execution_exception' } } }] })]]));
    await expect(throttledBulk.put(alice, indexItem('x', axisVector(16, 1)))).rejects.toBeInstanceOf(BackendUnavailableError);
  });
});

const url = process.env.OPENSEARCH_URL;
if (!url) console.log('OpenSearch contract suite against a real cluster: not run (set OPENSEARCH_URL to run it)');

describe.runIf(!!url)('OpenSearch adapter against a real cluster (OPENSEARCH_URL)', () => {
  const client = new Client({ node: url ?? 'http://127.0.0.1:9200' });
  const prefix = `contract-${Date.now().toString(36)}`;
  searchIndexContract(`OpenSearch at ${url}`, async (dimensions) =>
    new OpenSearchSearchIndex(client.transport as unknown as OpenSearchTransport, { prefix, dimensions }),
  );
});

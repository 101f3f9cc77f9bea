import { describe, expect, it } from 'vitest';
import {
  filterQuery,
  metadataFields,
  sortableNumber,
  valueTerm,
} from '../../../lambdas/adapters/aws/opensearch-filter.js';
import type {
  OpenSearchRequest,
  OpenSearchTransport,
} from '../../../lambdas/adapters/aws/opensearch-index-requests.js';
import { OpenSearchSearchIndex } from '../../../lambdas/adapters/aws/opensearch-search-index.js';
import { type Filter, matchesFilter, parseFilter } from '../../../lambdas/core/filter.js';
import { itemSubject } from '../../../lambdas/core/filter-subject.js';
import type { Metadata } from '../../../lambdas/core/metadata.js';
import type { DocumentChanges, DocumentKind, IndexItem, ItemKind, LibraryRef } from '../../../lambdas/core/model.js';
import { axisVector, indexItem } from '../../contract/fixtures.js';

/**
 * The Filter -> OpenSearch query translation (opensearch-filter.ts). Without
 * a cluster, its queries are run here by a small evaluator of the query
 * types it emits, with OpenSearch's semantics for keyword fields (a
 * multi-valued field matches when any value does; exists needs a value;
 * ranges compare UTF-8 bytes), over the very documents put() writes and
 * updateItem()'s script rewrites, and compared with matchesFilter, the
 * reference every store reproduces.
 */

type Doc = Record<string, unknown>;
const valuesOf = (doc: Doc, field: string): string[] => {
  const v = doc[field];
  if (v === undefined || v === null) return [];
  return (Array.isArray(v) ? v : [v]).map((x) => {
    if (typeof x !== 'string') throw new Error(`${field}: a keyword field holds strings here, got ${typeof x}`);
    return x;
  });
};
const bytes = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/** OpenSearch's filter-context semantics of the query types the translator emits; anything else throws. */
function run(query: any, doc: Doc): boolean {
  const entries = Object.entries(query);
  if (entries.length !== 1) throw new Error(`a query has one type: ${JSON.stringify(query)}`);
  const [type, body] = entries[0] as [string, any];
  switch (type) {
    case 'match_all':
      return true;
    case 'match_none':
      return false;
    case 'term': {
      const [field, value] = Object.entries(body)[0]!;
      return valuesOf(doc, field).includes(value as string);
    }
    case 'terms': {
      const [field, list] = Object.entries(body)[0] as [string, string[]];
      return valuesOf(doc, field).some((v) => list.includes(v));
    }
    case 'prefix': {
      const [field, p] = Object.entries(body)[0] as [string, string];
      return valuesOf(doc, field).some((v) => v.startsWith(p));
    }
    case 'exists':
      return valuesOf(doc, body.field).length > 0;
    case 'range': {
      const [field, bounds] = Object.entries(body)[0] as [string, Record<string, string>];
      for (const op of Object.keys(bounds))
        if (!['gt', 'gte', 'lt', 'lte'].includes(op)) throw new Error(`a range bound: ${op}`);
      return valuesOf(doc, field).some(
        (v) =>
          (bounds.gt === undefined || bytes(v, bounds.gt) > 0) &&
          (bounds.gte === undefined || bytes(v, bounds.gte) >= 0) &&
          (bounds.lt === undefined || bytes(v, bounds.lt) < 0) &&
          (bounds.lte === undefined || bytes(v, bounds.lte) <= 0),
      );
    }
    case 'bool': {
      for (const k of Object.keys(body))
        if (!['filter', 'must', 'should', 'must_not', 'minimum_should_match'].includes(k))
          throw new Error(`a bool clause: ${k}`);
      const all = [...(body.filter ?? []), ...(body.must ?? [])];
      if (!all.every((q: any) => run(q, doc))) return false;
      if ((body.must_not ?? []).some((q: any) => run(q, doc))) return false;
      const should = body.should ?? [];
      const minimum = body.minimum_should_match ?? (all.length ? 0 : should.length ? 1 : 0);
      return should.filter((q: any) => run(q, doc)).length >= minimum;
    }
    default:
      throw new Error(`a query type the evaluator does not know: ${type}`);
  }
}

/** Painless's `for (e : set) put; for (f : remove) remove` (UPDATE_FIELDS_SCRIPT), on a document's source. */
const applyScript = (doc: Doc, params: { set: Record<string, unknown>; remove: string[] }): Doc => {
  const out = { ...doc, ...structuredClone(params.set) };
  for (const f of params.remove) delete out[f];
  return out;
};

class Transport implements OpenSearchTransport {
  requests: OpenSearchRequest[] = [];
  constructor(private readonly answer: (r: OpenSearchRequest) => unknown = () => ({})) {}
  async request(params: OpenSearchRequest) {
    this.requests.push(params);
    const body = params.path === '/_bulk' ? { errors: false, items: [] } : this.answer(params);
    return { body, statusCode: 200 };
  }
}

const alice: LibraryRef = { tenantId: 'ten_A', endUserId: 'alice' };
const index = (transport: OpenSearchTransport) =>
  new OpenSearchSearchIndex(transport, { prefix: 'lib', dimensions: 16 });

/** The documents put() writes for an item: the item document and its passage documents. */
async function documentsOf(item: IndexItem): Promise<Doc[]> {
  const transport = new Transport(() => ({ hits: { hits: [] } }));
  await index(transport).put(alice, item);
  const bulk = transport.requests.find((r) => r.path === '/_bulk')!.bulkBody!;
  return bulk.filter((_, i) => i % 2 === 1) as Doc[];
}

/** The filter clause a keyword search sends (the last of its bool.filter). */
async function sentFilter(filter: Filter): Promise<unknown> {
  const transport = new Transport(() => ({ hits: { hits: [] } }));
  await index(transport).keywordSearch(alice, { text: 'x', limit: 5, filter });
  return (transport.requests[0]!.body as any).query.bool.filter.at(-1);
}

/** The set and remove params updateItem's script gets for these changes. */
async function scriptParams(changes: DocumentChanges) {
  const transport = new Transport((r) =>
    r.method === 'GET'
      ? { found: true, _source: { tenant_id: 'ten_A', library: 'U#alice' } }
      : { total: 3, updated: 3 },
  );
  await index(transport).updateItem(alice, 'file_1', changes);
  const update = transport.requests.find((r) => r.path.endsWith('_update_by_query'));
  return update ? (update.body as any).script.params : { set: {}, remove: [] }; // nothing to change: no request
}

describe('OpenSearch filter translation: the documents and queries', () => {
  it('orders numbers by their terms, -0 as 0', () => {
    const numbers = [-1e300, -5, -1.5, -1, -5e-324, 0, 5e-324, 0.1, 1, 1.5, 2, 10, 1e300];
    const terms = numbers.map(sortableNumber);
    expect([...terms].sort()).toEqual(terms);
    expect(terms.every((t) => /^[0-9a-f]{16}$/.test(t))).toBe(true);
    expect(sortableNumber(-0)).toBe(sortableNumber(0));
  });

  it('indexes each metadata value under its key and type, arrays element by element, ISO dates also canonical', () => {
    expect(
      metadataFields({ tags: ['a', 'b', 'a'], n: 3, ok: true, when: '2026-11-22T08:41:03+02:00', none: [] }),
    ).toEqual({
      metadata: { tags: ['a', 'b', 'a'], n: 3, ok: true, when: '2026-11-22T08:41:03+02:00', none: [] },
      meta_keys: ['tags', 'n', 'ok', 'when', 'none'],
      meta_types: ['tags\0s', 'n\0n', 'ok\0b', 'when\0s', 'none\0s'],
      meta_kv: [
        'tags\0s\0a',
        'tags\0s\0b',
        `n\0n\0${sortableNumber(3)}`,
        'ok\0b\0true',
        'when\0s\x002026-11-22T08:41:03+02:00',
        'when\0d\x002026-11-22T06:41:03.000000',
      ],
    });
    expect(metadataFields(undefined)).toEqual({ metadata: {}, meta_keys: [], meta_types: [], meta_kv: [] });
  });

  const q = (json: unknown) => filterQuery(parseFilter(json));
  const missing = (key: string) => ({ bool: { must_not: [{ term: { meta_keys: key } }] } });

  it('translates equality, in (any element of an array) and exists', () => {
    expect(q({ 'metadata.tags': 'travel' })).toEqual({ term: { meta_kv: 'tags\0s\0travel' } });
    expect(q({ 'metadata.year': 2026 })).toEqual({ term: { meta_kv: `year\0n\0${sortableNumber(2026)}` } });
    expect(q({ 'metadata.tags': { in: ['travel', 'work', 3] } })).toEqual({
      terms: { meta_kv: ['tags\0s\0travel', 'tags\0s\0work', `tags\0n\0${sortableNumber(3)}`] },
    });
    expect(q({ 'metadata.tags': { exists: true } })).toEqual({ term: { meta_keys: 'tags' } });
    expect(q({ 'metadata.tags': { exists: false } })).toEqual(missing('tags'));
    expect(q({ source_ref: 'notes/a.md' })).toEqual({ term: { source_ref_kw: 'notes/a.md' } });
    expect(q({ kind: 'text' })).toEqual({
      bool: { should: [{ term: { kind: 'text' } }, { term: { doc_kind: 'text' } }], minimum_should_match: 1 },
    });
    expect(q({ title: 3 })).toEqual({ match_none: {} }); // a number is never a title
  });

  it('translates ne and nin: a missing key matches, a present one only with a value of their type that differs', () => {
    expect(q({ 'metadata.lang': { ne: 'en' } })).toEqual({
      bool: {
        should: [
          missing('lang'),
          {
            bool: {
              filter: [
                { term: { meta_types: 'lang\0s' } },
                { bool: { must_not: [{ term: { meta_kv: 'lang\0s\0en' } }] } },
              ],
            },
          },
        ],
        minimum_should_match: 1,
      },
    });
    expect(q({ 'metadata.lang': { nin: ['en', 1] } })).toEqual({
      bool: {
        should: [
          missing('lang'),
          {
            bool: {
              filter: [
                { terms: { meta_types: ['lang\0s', 'lang\0n'] } },
                { bool: { must_not: [{ terms: { meta_kv: ['lang\0s\0en', `lang\0n\0${sortableNumber(1)}`] } }] } },
              ],
            },
          },
        ],
        minimum_should_match: 1,
      },
    });
    expect(q({ source_ref: { ne: 'a' } })).toEqual({ bool: { must_not: [{ term: { source_ref_kw: 'a' } }] } }); // a missing one included
    expect(q({ source_ref: { ne: 1 } })).toEqual({ bool: { must_not: [{ exists: { field: 'source_ref_kw' } }] } }); // only a missing one
  });

  it("translates ranges on a key's numbers and dates into term ranges within that key and type, and on the date fields", () => {
    const n = (x: number) => `year\0n\0${sortableNumber(x)}`;
    expect(q({ 'metadata.year': { gte: 2020 } })).toEqual({ range: { meta_kv: { gte: n(2020), lt: 'year\0n\x01' } } });
    expect(q({ 'metadata.year': { lt: 2030 } })).toEqual({ range: { meta_kv: { gte: 'year\0n\0', lt: n(2030) } } });
    expect(q({ 'metadata.due': { gt: '2026-01-01T01:00:00+01:00' } })).toEqual({
      range: { meta_kv: { gt: 'due\0d\x002026-01-01T00:00:00.000000', lt: 'due\0d\x01' } },
    });
    expect(q({ created_at: { lte: '2026-11-22' } })).toEqual({
      range: { content_date: { lte: '2026-11-22T00:00:00.000000' } },
    });
    expect(q({ content_date: { gt: '2026-11-22T06:00:00Z' } })).toEqual({
      range: { content_date: { gt: '2026-11-22T06:00:00.000000' } },
    });
  });

  it('translates prefix and the and, or and not of conditions', () => {
    expect(q({ 'metadata.path': { prefix: 'docs/' } })).toEqual({ prefix: { meta_kv: 'path\0s\0docs/' } });
    expect(q({ source_ref: { prefix: 'web/' } })).toEqual({ prefix: { source_ref_kw: 'web/' } });
    expect(q({ and: [{ 'metadata.a': 'x' }, { or: [{ 'metadata.b': true }, { not: { kind: 'chat' } }] }] })).toEqual({
      bool: {
        filter: [
          { term: { meta_kv: 'a\0s\0x' } },
          {
            bool: {
              should: [
                { term: { meta_kv: 'b\0b\0true' } },
                {
                  bool: {
                    must_not: [
                      {
                        bool: {
                          should: [{ term: { kind: 'chat' } }, { term: { doc_kind: 'chat' } }],
                          minimum_should_match: 1,
                        },
                      },
                    ],
                  },
                },
              ],
              minimum_should_match: 1,
            },
          },
        ],
      },
    });
    // Several fields in one object: all must hold.
    expect(q({ 'metadata.a': 'x', title: { prefix: 'Q' } })).toEqual({
      bool: { filter: [{ term: { meta_kv: 'a\0s\0x' } }, { prefix: { title_kw: 'Q' } }] },
    });
  });

  it('the evaluator used below reads these queries as OpenSearch does (a sanity check of the check)', () => {
    const doc = { meta_keys: ['tags'], meta_types: ['tags\0s'], meta_kv: ['tags\0s\0a', 'tags\0s\0b'], kind: 'chat' };
    expect(run({ term: { meta_kv: 'tags\0s\0b' } }, doc)).toBe(true);
    expect(run({ bool: { must_not: [{ exists: { field: 'title_kw' } }] } }, doc)).toBe(true);
    expect(run({ bool: { should: [{ match_none: {} }], minimum_should_match: 1 } }, doc)).toBe(false);
    expect(run({ exists: { field: 'meta_kv' } }, { meta_kv: [] })).toBe(false);
    expect(run({ range: { meta_kv: { gte: 'tags\0s\0b', lt: 'tags\0s\x01' } } }, doc)).toBe(true);
    expect(() => run({ wildcard: {} }, doc)).toThrow(/does not know/);
  });
});

describe('OpenSearch filter translation agrees with matchesFilter (random items and filters)', () => {
  let seed = 11;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  const KEYS = ['a', 'b', 'c.d'];
  const STRINGS = [
    'red',
    'Red',
    'blue',
    '',
    'ré',
    '2026-01-02',
    '2026-01-02T10:00:00+02:00',
    '2026-01-02T08:00:00Z',
    '2026-02-30',
    '10',
    'true',
  ];
  const DATES = [
    '2026-01-01T00:00:00.000000',
    '2026-01-02T08:00:00.000000',
    '2026-01-02T08:00:00.000001',
    '2027-06-30T23:59:59.999999',
  ];
  const scalarValue = () =>
    pick<string | number | boolean>([...STRINGS, 0, -0, 3, 10, -1.5, 1e21, 5e-324, true, false]);
  const metadataValue = (): Metadata[string] =>
    random() < 0.3 ? Array.from({ length: Math.floor(random() * 3) }, () => pick(STRINGS)) : scalarValue();

  const randomItem = (): IndexItem => {
    const kind = pick<ItemKind>(['file_excerpt', 'image', 'chat', 'creation']);
    const isDocument = kind === 'file_excerpt' || kind === 'image';
    const metadata: Metadata = {};
    if (isDocument) for (const key of KEYS) if (random() < 0.6) metadata[key] = metadataValue();
    return indexItem('some text', axisVector(16, 1), {
      kind,
      title: pick([null, 'Alpha notes', 'alpha', 'Beta', '']),
      sourceRef: pick([null, 'notes/a.md', 'web/b', '']),
      contentDate: pick(DATES),
      ...(isDocument
        ? {
            metadata,
            documentKind: kind === 'image' ? 'image' : pick<DocumentKind>(['text', 'file']),
            ...(random() < 0.8 ? { contentType: pick(['text/plain', 'application/pdf', 'image/png']) } : {}),
          }
        : {}),
    });
  };

  const condition = (): unknown => {
    const field = pick([
      ...KEYS.map((k) => `metadata.${k}`),
      'title',
      'source_ref',
      'kind',
      'content_type',
      'created_at',
      'content_date',
    ]);
    const isDate = field === 'created_at' || field === 'content_date';
    // Mostly values the field may hold (so that conditions match some), now and then one of another type.
    const pools: Record<string, unknown[]> = {
      kind: ['text', 'file', 'image', 'chat', 'creation', 'file_excerpt'],
      title: ['Alpha notes', 'alpha', 'Beta', '', 'Gamma'],
      source_ref: ['notes/a.md', 'web/b', 'web/c', ''],
      content_type: ['text/plain', 'application/pdf', 'image/png'],
    };
    const scalar = () =>
      isDate
        ? pick([...DATES, '2026-01-02T09:00:00+01:00', '2026-01-02'])
        : random() < 0.15
          ? pick<unknown>([0, 3, true, false, 'red'])
          : pick<unknown>(pools[field] ?? [...STRINGS, 0, 3, 10, -1.5, 1e21, true, false]);
    const prefixes: Record<string, string[]> = {
      kind: ['te', 'fi', 'file_', 'ch', 'im', ''],
      title: ['Al', 'al', 'B', ''],
      source_ref: ['notes/', 'web/', ''],
      content_type: ['text/', 'image/', 'app'],
      created_at: ['2026-01', '2027'],
      content_date: ['2026-01-02', '2027'],
    };
    const otherType = () => pick<unknown>([0, 3, true, false]);
    const list = (n: number) => Array.from({ length: n }, random() < 0.2 ? otherType : scalar);
    const bound = () =>
      isDate
        ? scalar()
        : pick<unknown>([0, 3, -1.5, 1e21, '2026-01-02', '2026-01-02T08:00:00Z', '2026-01-02T09:00:00+01:00']);
    switch (pick(['eq', 'ne', 'in', 'nin', 'gt', 'gte', 'lt', 'lte', 'exists', 'prefix', 'two'])) {
      case 'eq':
        return { [field]: scalar() };
      case 'ne':
        return { [field]: { ne: scalar() } };
      case 'in':
        return { [field]: { in: list(2) } };
      case 'nin':
        return { [field]: { nin: list(3) } };
      case 'exists':
        return { [field]: { exists: random() < 0.5 } };
      case 'prefix':
        return { [field]: { prefix: pick(prefixes[field] ?? ['r', 'R', '', '2026-01', '1']) } };
      case 'two':
        return { [field]: { gte: bound(), lt: bound() } };
      default:
        return { [field]: { [pick(['gt', 'gte', 'lt', 'lte'])]: bound() } };
    }
  };
  const tree = (depth: number): unknown => {
    if (depth >= 3 || random() < 0.35) return condition();
    const kind = pick(['and', 'or', 'not', 'fields']);
    if (kind === 'not') return { not: tree(depth + 1) };
    if (kind === 'fields') return { ...(condition() as object), ...(condition() as object) };
    return { [kind]: Array.from({ length: 1 + Math.floor(random() * 3) }, () => tree(depth + 1)) };
  };
  const randomFilters = (count: number) => {
    const filters: Filter[] = [];
    while (filters.length < count) {
      try {
        filters.push(parseFilter(tree(0)));
      } catch {
        // a range on a field that takes none: the parser's 422
      }
    }
    return filters;
  };
  const changes = (): DocumentChanges => ({
    ...(random() < 0.5 ? { title: pick(['Alpha notes', 'Gamma', '']) } : {}),
    ...(random() < 0.5 ? { sourceRef: pick([null, 'notes/a.md', 'web/c']) } : {}),
    ...(random() < 0.7
      ? { metadata: Object.fromEntries(KEYS.filter(() => random() < 0.6).map((k) => [k, metadataValue()])) }
      : {}),
  });

  it('every document of every item (item and passages) matches exactly when matchesFilter says so, before and after an update', async () => {
    const items = Array.from({ length: 80 }, randomItem);
    const filters = randomFilters(800);
    const written = await Promise.all(items.map(documentsOf));
    const updates = items.map(() => changes());
    const params = await Promise.all(updates.map(scriptParams));
    let matched = 0;
    let checks = 0;
    for (const filter of filters) {
      const query = await sentFilter(filter);
      items.forEach((item, i) => {
        const expected = matchesFilter(itemSubject(item), filter);
        for (const doc of written[i]!) {
          checks++;
          if (run(query, doc) !== expected)
            throw new Error(`${JSON.stringify(filter)} on ${JSON.stringify(item)}: expected ${expected}`);
        }
        if (expected) matched++;
        // After a PATCH: the item as changed, against the documents the script rewrote.
        const { metadata, ...rest } = updates[i]!;
        const changed: IndexItem = {
          ...item,
          ...rest,
          ...(metadata !== undefined ? { metadata: item.metadata ? metadata : undefined } : {}),
        };
        // Chats and creations are never patched (metadata only on documents); their metadata stays none.
        if (!item.documentKind) return;
        const after = matchesFilter(itemSubject(changed), filter);
        for (const doc of written[i]!) {
          checks++;
          if (run(query, applyScript(doc, params[i]!)) !== after)
            throw new Error(
              `after ${JSON.stringify(updates[i])}: ${JSON.stringify(filter)} on ${JSON.stringify(changed)}: expected ${after}`,
            );
        }
      });
    }
    // The filters are selective: neither all nor nothing.
    expect(matched).toBeGreaterThan(filters.length * items.length * 0.1);
    expect(matched).toBeLessThan(filters.length * items.length * 0.9);
    expect(checks).toBeGreaterThan(100_000);
  });

  it('every single condition (each field, operator and value of the pools) over every item, exhaustively', async () => {
    const items = Array.from({ length: 60 }, randomItem);
    const written = await Promise.all(items.map(documentsOf));
    const fields = [
      ...KEYS.map((k) => `metadata.${k}`),
      'title',
      'source_ref',
      'kind',
      'content_type',
      'created_at',
      'content_date',
    ];
    const values: unknown[] = [
      ...STRINGS,
      ...DATES,
      '2026-01-02T09:00:00+01:00',
      0,
      -0,
      3,
      10,
      -1.5,
      1e21,
      true,
      false,
      'text',
      'file',
      'image',
      'chat',
      'creation',
      'file_excerpt',
      'Alpha notes',
      'alpha',
      'notes/a.md',
      'web/b',
      'text/plain',
      'application/pdf',
    ];
    const prefixes = [
      '',
      'r',
      'R',
      '2026-01',
      '1',
      'te',
      'fi',
      'file_',
      'ch',
      'im',
      'Al',
      'notes/',
      'web/',
      'text/',
      'app',
      '2027',
    ];
    const conditions: unknown[] = [];
    for (const field of fields) {
      for (const v of values) conditions.push({ [field]: v }, { [field]: { ne: v } });
      for (const list of [
        [0, true],
        ['red', 3],
        ['text', 'chat'],
        ['image', 'file_excerpt', 5],
        ['Beta', 'web/b', 'text/plain'],
        ['2026-01-02', '2026-02-30'],
      ]) {
        conditions.push({ [field]: { in: list } }, { [field]: { nin: list } });
      }
      for (const op of ['gt', 'gte', 'lt', 'lte'])
        for (const b of [0, 3, -1.5, 1e21, ...DATES, '2026-01-02', '2026-01-02T09:00:00+01:00'])
          conditions.push({ [field]: { [op]: b } });
      conditions.push({ [field]: { exists: true } }, { [field]: { exists: false } });
      for (const p of prefixes) conditions.push({ [field]: { prefix: p } });
    }
    let tried = 0;
    for (const json of conditions) {
      let filter: Filter;
      try {
        filter = parseFilter(json);
      } catch {
        continue; // not a filter the parser makes (a number for a date field, a range on title)
      }
      tried++;
      const query = filterQuery(filter);
      items.forEach((item, i) => {
        const expected = matchesFilter(itemSubject(item), filter);
        for (const doc of written[i]!)
          if (run(query, doc) !== expected)
            throw new Error(`${JSON.stringify(json)} on ${JSON.stringify(item)}: expected ${expected}`);
      });
    }
    expect(tried).toBeGreaterThan(500);
  });

  it('a metadata term never confuses keys or types: "10" is not 10, true is not "true", key c.d is not key c', async () => {
    const item = indexItem('x', axisVector(16, 1), {
      metadata: { 'c.d': '10', b: 'true', a: 10 },
      documentKind: 'text',
    });
    const [doc] = await documentsOf(item);
    const check = (json: unknown) => {
      const filter = parseFilter(json);
      expect(run(filterQuery(filter), doc!)).toBe(matchesFilter(itemSubject(item), filter));
      return run(filterQuery(filter), doc!);
    };
    expect(check({ 'metadata.c.d': 10 })).toBe(false);
    expect(check({ 'metadata.c.d': '10' })).toBe(true);
    expect(check({ 'metadata.c': { exists: true } })).toBe(false);
    expect(check({ 'metadata.b': true })).toBe(false);
    expect(check({ 'metadata.b': { ne: true } })).toBe(false); // present, of another type
    expect(check({ 'metadata.a': { gt: 9.5 } })).toBe(true);
    expect(check({ 'metadata.c.d': { gt: 9.5 } })).toBe(false); // a string is not a number
    expect(valueTerm('a', 10)).not.toBe(valueTerm('a', '10'));
  });
});

import { describe, expect, expectTypeOf, it } from 'vitest';
import { type Filter, Library, type Metadata } from '../../client/src/index.js';

/**
 * The client's `Filter` type follows the grammar (checked by `tsc --noEmit`,
 * which `npm test` runs over test/: each `@ts-expect-error` below fails the
 * build if its line compiles), and the client sends filters, metadata and
 * patches as the contract says (a stub fetch records the requests).
 */

// ---- compile-time: what the grammar allows
const allowed: Filter[] = [
  { 'metadata.project': 'apollo' },
  { 'metadata.year': 2024, 'metadata.draft': false },
  { 'metadata.year': { gte: 2020, lt: 2030 }, 'metadata.tags': { in: ['travel', 'work'] } },
  { 'metadata.reviewed': { gte: '2026-01-01' }, 'metadata.owner': { exists: true }, 'metadata.path': { prefix: 'a/' } },
  { 'metadata.status': { ne: 'done', nin: ['archived', 3, true] } },
  { source_ref: { prefix: 'notes/' }, title: 'Plan', kind: { in: ['file', 'text'] }, content_type: { ne: 'text/csv' } },
  { created_at: { gte: '2026-01-01', lt: '2026-02-01T00:00:00Z' }, content_date: '2026-01-15' },
  { and: [{ 'metadata.a': 1 }, { or: [{ 'metadata.b': 'x' }, { not: { 'metadata.c': { exists: true } } }] }] },
  { not: { source_ref: { exists: false } } },
];
const tags = ['a', 'b'] as const;
const fromReadonly: Filter = { 'metadata.tags': { in: tags } };

// ---- compile-time: what it does not
// @ts-expect-error an unknown operator
const wrongOperator: Filter = { 'metadata.year': { gtx: 2024 } };
// @ts-expect-error an unknown operator beside a good one
const wrongBeside: Filter = { 'metadata.year': { gte: 2020, between: [2020, 2030] } };
// @ts-expect-error an unknown field (metadata keys go under metadata.)
const wrongField: Filter = { project: 'apollo' };
// @ts-expect-error in takes an array
const inScalar: Filter = { 'metadata.tags': { in: 'travel' } };
// @ts-expect-error exists takes a boolean
const existsString: Filter = { 'metadata.owner': { exists: 'yes' } };
// @ts-expect-error prefix takes a string
const prefixNumber: Filter = { source_ref: { prefix: 3 } };
// @ts-expect-error no ranges on string fields
const rangeOnTitle: Filter = { title: { gt: 'A' } };
// @ts-expect-error dates are ISO 8601 strings, not numbers
const numericDate: Filter = { created_at: { gte: 1700000000 } };
// @ts-expect-error equality takes a scalar, not an array
const arrayEquality: Filter = { 'metadata.tags': ['a', 'b'] };
// @ts-expect-error and takes an array of filters
const andObject: Filter = { and: { 'metadata.a': 1 } };
// @ts-expect-error a metadata value is a string, number, boolean or array of strings
const nestedMetadata: Metadata = { owner: { name: 'ada' } };
// The methods take the typed filter too (never called: only compiled).
async function typedMethods(lib: Library) {
  // @ts-expect-error search: an unknown operator
  await lib.search({ q: 'x', filter: { 'metadata.a': { gtx: 1 } } });
  // @ts-expect-error grep: an unknown field
  await lib.grep({ pattern: 'x', filter: { nope: 1 } });
  // @ts-expect-error documents.list: the filter is an object, not its JSON text
  await lib.documents.list({ filter: '{"metadata.a": 1}' });
  // @ts-expect-error chat: an unknown operator
  await lib.chat('x', { filter: { 'metadata.a': { like: 'y' } } });
  // @ts-expect-error chat's object form: an unknown operator
  await lib.chat({ question: 'x', filter: { 'metadata.a': { like: 'y' } } });
  // @ts-expect-error update: a metadata value must be a string, number, boolean, array of strings or null
  await lib.documents.update('file_1', { metadata: { a: { b: 1 } } });
}
void [
  typedMethods,
  allowed,
  fromReadonly,
  wrongOperator,
  wrongBeside,
  wrongField,
  inScalar,
  existsString,
  prefixNumber,
  rangeOnTitle,
  numericDate,
  arrayEquality,
  andObject,
  nestedMetadata,
];

/** A fetch that records each request and answers from `reply`. */
function recorder(reply: (url: URL, init: RequestInit) => unknown) {
  const calls: Array<{ method: string; url: URL; body: unknown }> = [];
  const fetch: typeof globalThis.fetch = async (input, init = {}) => {
    const url = new URL(String(input));
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method: init.method ?? 'GET', url, body });
    return new Response(JSON.stringify(reply(url, init)), {
      status: 200,
      headers: { 'content-type': 'application/json', 'x-request-id': 'req_1' },
    });
  };
  return { calls, fetch };
}

describe('the client sends filters, metadata and patches as the contract says', () => {
  it('serializes filter as JSON in the query of search, grep and documents (and keeps it on every page), and in the chat body', async () => {
    const page = (key: string, n: number) => ({
      [key]: [],
      count: 0,
      has_more: n === 0,
      next_cursor: n === 0 ? 'c1' : null,
    });
    let n = 0;
    const { calls, fetch } = recorder((url) => {
      if (url.pathname === '/v1/chat')
        return { reply: 'ok', artifacts: [], sources: [], tokens_used: 0, run_id: 'run_1', conversation_id: 'cnv_1' };
      if (url.pathname === '/v1/documents') return page('documents', n++);
      return page('results', 1);
    });
    const lib = new Library({ baseUrl: 'http://stub.test', apiKey: 'k', fetch });
    const filter: Filter = {
      'metadata.project': 'apollo',
      'metadata.year': { gte: 2024 },
      or: [{ 'metadata.tags': 'a & b' }],
    };

    await lib.search({ q: 'harbour', filter, limit: 5 });
    await lib.grep({ pattern: 'harbour', filter, case_sensitive: true });
    const docs = [];
    for await (const doc of lib.documents.iterate({ filter, limit: 2 })) docs.push(doc);
    await lib.chat('When?', { filter, end_user_id: 'ann' });
    await lib.chat({ question: 'Where?', filter: { source_ref: { prefix: 'notes/' } } });

    const [search, grep, list1, list2, chat, chatObject] = calls;
    expect(JSON.parse(search!.url.searchParams.get('filter')!)).toEqual(filter);
    expect(search!.url.searchParams.get('limit')).toBe('5');
    expect(JSON.parse(grep!.url.searchParams.get('filter')!)).toEqual(filter);
    expect(grep!.url.searchParams.get('case_sensitive')).toBe('true');
    expect(JSON.parse(list1!.url.searchParams.get('filter')!)).toEqual(filter);
    expect(list2!.url.searchParams.get('cursor')).toBe('c1');
    expect(JSON.parse(list2!.url.searchParams.get('filter')!)).toEqual(filter); // a cursor works only with the same filter
    expect(chat).toMatchObject({ method: 'POST', body: { question: 'When?', end_user_id: 'ann', filter } });
    expect(chatObject!.body).toEqual({ question: 'Where?', filter: { source_ref: { prefix: 'notes/' } } });
    // No filter: no parameter at all (an empty one would be 422).
    await lib.search({ q: 'x' });
    expect(calls.at(-1)!.url.searchParams.has('filter')).toBe(false);
  });

  it('sends metadata with captures and files, and PATCHes a document with a merge patch', async () => {
    const receipt = {
      ok: true,
      status: 'created',
      dedup: false,
      detail: '',
      id: 'file_1',
      file_id: 'file_1',
      reject_code: null,
      retryable: false,
      source_ref: null,
    };
    const { calls, fetch } = recorder((url, init) => {
      if (init.method === 'PATCH') return { id: 'file_1', metadata: { year: 2025 } };
      if (url.pathname === '/v1/capture/batch') return { total: 1, succeeded: 1, results: [{ ...receipt, index: 0 }] };
      return receipt;
    });
    const lib = new Library({ baseUrl: 'http://stub.test/v1/', apiKey: 'k', fetch });
    await lib.capture({ text: 'a note', metadata: { project: 'apollo', year: 2024, draft: true, tags: ['a', 'b'] } });
    await lib.captureFile(new TextEncoder().encode('k,v\n'), { filename: 't.csv', metadata: { kind_of: 'table' } });
    await lib.captureBatch([{ text: 'b', metadata: { n: 1 } }]);
    const updated = await lib.documents.update(
      'file_1',
      { title: 'New', source_ref: null, metadata: { year: 2025, draft: null } },
      { end_user_id: 'ann' },
    );
    expectTypeOf(updated.metadata).toEqualTypeOf<Record<string, string | number | boolean | string[]>>();
    expect(updated).toEqual({ id: 'file_1', metadata: { year: 2025 } });

    expect(calls[0]!.body).toMatchObject({
      text: 'a note',
      metadata: { project: 'apollo', year: 2024, draft: true, tags: ['a', 'b'] },
    });
    expect(calls[1]!.body).toMatchObject({
      filename: 't.csv',
      content_type: 'text/csv',
      metadata: { kind_of: 'table' },
    });
    expect(calls[2]!.body).toEqual({ items: [{ text: 'b', metadata: { n: 1 } }] });
    expect(calls[3]).toMatchObject({
      method: 'PATCH',
      body: { title: 'New', source_ref: null, metadata: { year: 2025, draft: null } },
    });
    expect(calls[3]!.url.pathname).toBe('/v1/documents/file_1');
    expect(calls[3]!.url.searchParams.get('end_user_id')).toBe('ann');
  });
});

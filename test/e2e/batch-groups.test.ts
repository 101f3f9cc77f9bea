import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackendUnavailableError } from '../../lambdas/core/errors.js';
import type { SearchIndex } from '../../lambdas/core/ports.js';
import { HashingEmbedder } from '../support/hashing-embedder.js';
import { startTestServer, type TestServer } from '../support/local-server.js';

/**
 * A batch's text pushes are captured together on the local stack (one
 * claim, one index write and one queue write for a group:
 * core/capture-group.ts). Each receipt must be the one the item would get
 * alone, in order, and what is stored must match the receipts, also when
 * the group fails or an erasure lands in the middle of it.
 */
let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer({ embedder: new HashingEmbedder() });
  key = await server.newKey('groups');
});
afterAll(() => server.close());

const batch = (items: unknown[], endUserId: string) =>
  server.api('/v1/capture/batch', { key, method: 'POST', body: { items, end_user_id: endUserId } });

async function documentIds(endUserId: string): Promise<string[]> {
  const res = await server.api(`/v1/documents?limit=100&end_user_id=${endUserId}`, { key });
  return (res.body.documents as Array<{ id: string }>).map((d) => d.id).sort();
}

async function grepCount(pattern: string, endUserId: string): Promise<number> {
  const res = await server.api(`/v1/grep?pattern=${pattern}&end_user_id=${endUserId}`, { key });
  return res.body.results.length;
}

/** Replaces one method of the local index until the returned function restores it. */
function patchIndex<K extends keyof SearchIndex>(name: K, method: SearchIndex[K]): () => void {
  const index = server.stack.ports.index as SearchIndex;
  index[name] = method;
  return () => {
    delete (index as Partial<SearchIndex>)[name];
  };
}

describe('batch text groups on the local stack', () => {
  it('answers each item as it would alone, in order: new, repeated, already held, invalid, another library, a replacement', async () => {
    const user = 'groups-mixed';
    await batch([{ text: 'already held grpheld note' }], user);
    const items = [
      { text: 'first grpalpha note about the boiler service' },
      { text: 'second grpbeta note about the car insurance' },
      { text: 'first grpalpha note about the boiler service' }, // repeats item 0
      { text: 'already held grpheld note' },
      { text: 'third grpgamma note', metadata: { topic: 'home' } },
      { text: '' }, // rejected alone
      { text: 'fourth grpdelta note' },
      { text: 'fifth grpepsilon note for someone else', end_user_id: 'groups-other' },
      { text: 'sixth grpzeta note', source_ref: 'ref-zeta', replace_source_ref: true },
      { text: 'seventh grpeta note', title: 'Seventh' },
      { text: `long grptheta note ${'with many more words '.repeat(1000)}` }, // over 16 KiB: captured alone
    ];
    const res = await batch(items, user);
    expect(res.status).toBe(200);
    const statuses = res.body.results.map((r: { status: string }) => r.status);
    expect(statuses).toEqual([
      'created',
      'created',
      'deduped',
      'deduped',
      'created',
      'rejected',
      'created',
      'created',
      'created',
      'created',
      'created',
    ]);
    expect(res.body.results.map((r: { index: number }) => r.index)).toEqual(items.map((_, i) => i));
    expect(res.body.results[2].id).toBe(res.body.results[0].id);
    expect(res.body.results[5]).toMatchObject({ reject_code: 'empty_content', id: null });
    expect(res.body.succeeded).toBe(10);
    // Findable by words and grep from the receipt on.
    for (const word of ['grpalpha', 'grpbeta', 'grpgamma', 'grpdelta', 'grpzeta', 'grpeta', 'grptheta'])
      expect(await grepCount(word, user), word).toBe(1);
    expect(await grepCount('grpepsilon', user)).toBe(0);
    expect(await grepCount('grpepsilon', 'groups-other')).toBe(1);
    const search = await server.api(`/v1/search?q=grpbeta&end_user_id=${user}`, { key });
    expect(search.body.results.map((r: { id: string }) => r.id)).toContain(res.body.results[1].id);
    // Stored exactly what the receipts say, with the labels sent.
    const created = res.body.results.filter((r: { status: string }) => r.status === 'created');
    const mine = created.filter((_: unknown, i: number) => created[i].id !== res.body.results[7].id);
    expect(await documentIds(user)).toEqual([...mine.map((r: { id: string }) => r.id), res.body.results[3].id].sort());
    const gamma = await server.api(`/v1/documents/${res.body.results[4].id}?end_user_id=${user}`, { key });
    expect(gamma.body.metadata).toEqual({ topic: 'home' });
    const seventh = await server.api(`/v1/documents/${res.body.results[9].id}?end_user_id=${user}`, { key });
    expect(seventh.body.title).toBe('Seventh');
    for (const r of created)
      expect(
        (await server.settled(key, r.id, { endUserId: r.id === res.body.results[7].id ? 'groups-other' : user }))
          .status,
      ).toBe('ready');
  });

  it('counts every created item once in usage', async () => {
    const before = (await server.api('/v1/usage', { key })).body.captures as number;
    const items = Array.from({ length: 19 }, (_, i) => ({ text: `usage count note ${i} grpusage${i}` }));
    items.push({ text: 'usage count note 0 grpusage0' }); // a repeat: deduped, not counted
    const res = await batch(items, 'groups-usage');
    expect(res.body.succeeded).toBe(20);
    expect(res.body.results.filter((r: { status: string }) => r.status === 'created')).toHaveLength(19);
    expect((await server.api('/v1/usage', { key })).body.captures).toBe(before + 19);
  });

  it('gives each item its own created_at, in request order, as captured alone: newest first and date filters tell them apart', async () => {
    const user = 'groups-dates';
    const items = Array.from({ length: 4 }, (_, i) => ({ text: `dated group note ${i} grpdated${i}` }));
    const res = await batch(items, user);
    expect(res.body.results.map((r: { status: string }) => r.status)).toEqual(Array(4).fill('created'));
    const ids = res.body.results.map((r: { id: string }) => r.id);
    const list = await server.api(`/v1/documents?end_user_id=${user}`, { key });
    const docs = list.body.documents as Array<{ id: string; created_at: string }>;
    // Newest first: the last item first.
    expect(docs.map((d) => d.id)).toEqual([...ids].reverse());
    const dates = docs.map((d) => d.created_at).reverse();
    for (let i = 1; i < dates.length; i++) expect(dates[i]! > dates[i - 1]!, dates.join(' ')).toBe(true);
    const after = encodeURIComponent(JSON.stringify({ created_at: { gt: dates[0] } }));
    const later = await server.api(`/v1/documents?end_user_id=${user}&filter=${after}`, { key });
    expect(later.body.documents.map((d: { id: string }) => d.id)).toEqual(ids.slice(1).reverse());
  });

  it('a group whose index write fails leaves nothing of itself: each item is then captured alone', async () => {
    const user = 'groups-failing';
    const restore = patchIndex('putMany', async () => {
      throw new BackendUnavailableError('index down for the group');
    });
    try {
      const items = Array.from({ length: 5 }, (_, i) => ({ text: `failing group note ${i} grpfail${i}` }));
      const res = await batch(items, user);
      expect(res.body.results.map((r: { status: string }) => r.status)).toEqual(Array(5).fill('created'));
      const ids = res.body.results.map((r: { id: string }) => r.id).sort();
      expect(await documentIds(user)).toEqual(ids);
      for (let i = 0; i < 5; i++) expect(await grepCount(`grpfail${i}`, user)).toBe(1);
    } finally {
      restore();
    }
  });

  it('a group whose queue write fails leaves nothing and charges each capture once, when the items are captured alone', async () => {
    const user = 'groups-queue-failing';
    const queue = server.stack.ports.queue;
    const usageBefore = (await server.api('/v1/usage', { key })).body.captures as number;
    const enqueueMany = queue.enqueueMany!.bind(queue);
    // Fails for a group's jobs only: an item captured alone queues its one job.
    queue.enqueueMany = async (jobs) => {
      if (jobs.length > 1) throw new BackendUnavailableError('queue down for the group');
      return enqueueMany(jobs);
    };
    try {
      const items = Array.from({ length: 5 }, (_, i) => ({ text: `queue failing note ${i} grpqueue${i}` }));
      const res = await batch(items, user);
      expect(res.body.results.map((r: { status: string }) => r.status)).toEqual(Array(5).fill('created'));
      expect(await documentIds(user)).toEqual(res.body.results.map((r: { id: string }) => r.id).sort());
      expect((await server.api('/v1/usage', { key })).body.captures).toBe(usageBefore + 5);
      for (const r of res.body.results)
        expect((await server.settled(key, r.id, { endUserId: user })).status).toBe('ready');
    } finally {
      delete (queue as { enqueueMany?: unknown }).enqueueMany;
    }
  });

  it('a failing lookup before the group claims anything: the items are captured alone, receipts and storage agree', async () => {
    const user = 'groups-lookup-failing';
    const documents = server.stack.ports.documents;
    const findBySha256 = documents.findBySha256.bind(documents);
    let failures = 1;
    documents.findBySha256 = async (...args) => {
      if (failures-- > 0) throw new BackendUnavailableError('store down for a moment');
      return findBySha256(...args);
    };
    try {
      const items = Array.from({ length: 4 }, (_, i) => ({ text: `lookup failing note ${i} grplookup${i}` }));
      const res = await batch(items, user);
      expect(res.status).toBe(200);
      expect(res.body.results.map((r: { status: string }) => r.status)).toEqual(Array(4).fill('created'));
      expect(await documentIds(user)).toEqual(res.body.results.map((r: { id: string }) => r.id).sort());
    } finally {
      delete (documents as { findBySha256?: unknown }).findBySha256;
    }
  });

  it('a single capture racing a batch with the same text: one document, created once and deduped once, by the same id', async () => {
    const user = 'groups-racing';
    for (let round = 0; round < 5; round++) {
      const shared = `racing note ${round} grprace${round}`;
      const items = [{ text: `batch only note ${round}a` }, { text: shared }, { text: `batch only note ${round}b` }];
      const [fromBatch, alone] = await Promise.all([
        batch(items, user),
        server.api('/v1/capture', { key, method: 'POST', body: { text: shared, end_user_id: user } }),
      ]);
      const receipts = [fromBatch.body.results[1], alone.body];
      expect(receipts.map((r: { status: string }) => r.status).sort(), `round ${round}`).toEqual([
        'created',
        'deduped',
      ]);
      expect(receipts[0].id).toBe(receipts[1].id);
      expect(await grepCount(`grprace${round}`, user)).toBe(1);
      const doc = await server.api(`/v1/documents/${receipts[0].id}?end_user_id=${user}`, { key });
      expect(doc.status).toBe(200);
    }
  });

  it('an erasure landing in the middle of a group: nothing of the erased generation stays, every receipt holds', async () => {
    const user = 'groups-erased';
    await batch([{ text: 'before the erasure grpbefore' }], user);
    let erased = false;
    const index = server.stack.ports.index as SearchIndex;
    const putMany = index.putMany!.bind(index);
    const restore = patchIndex('putMany', async (...args) => {
      if (!erased) {
        erased = true;
        const res = await server.api(`/v1/end-users/${user}`, { key, method: 'DELETE' });
        expect(res.status).toBe(200);
      }
      return putMany(...args);
    });
    try {
      const items = Array.from({ length: 4 }, (_, i) => ({ text: `erased group note ${i} grperase${i}` }));
      const res = await batch(items, user);
      expect(erased).toBe(true);
      expect(res.body.results.map((r: { status: string }) => r.status)).toEqual(Array(4).fill('created'));
      // Each item was captured again in the library's new generation: there, whole, and nothing else is.
      const ids = res.body.results.map((r: { id: string }) => r.id).sort();
      expect(await documentIds(user)).toEqual(ids);
      for (let i = 0; i < 4; i++) expect(await grepCount(`grperase${i}`, user)).toBe(1);
      expect(await grepCount('grpbefore', user)).toBe(0);
      for (const id of ids) expect((await server.settled(key, id, { endUserId: user })).status).toBe('ready');
    } finally {
      restore();
    }
  });
});

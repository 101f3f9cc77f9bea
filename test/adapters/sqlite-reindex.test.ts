import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../lambdas/adapters/local/database.js';
import { EmbedderMismatchError } from '../../lambdas/adapters/local/embedder-record.js';
import { SqliteVectorReindex } from '../../lambdas/adapters/local/sqlite-reindex.js';
import { BackendUnavailableError } from '../../lambdas/core/errors.js';
import type { Embedder, Embedding } from '../../lambdas/core/ports.js';
import { reindexLibrary } from '../../lambdas/core/reindex.js';
import { type LocalStack, openLocalStack } from '../../lambdas/wiring/local/local-stack.js';
import { HashingEmbedder } from '../support/hashing-embedder.js';

const dirs: string[] = [];
const stacks: LocalStack[] = [];
afterEach(() => {
  for (const stack of stacks.splice(0)) stack.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A second embedder (another name, other dimensions) that records every passage it embeds and can be told to die after some calls. */
class NextEmbedder implements Embedder {
  readonly name = 'next-test-embedder';
  readonly dimensions = 40;
  readonly embedded: string[] = [];
  callsLeft = Infinity;
  private readonly inner = new HashingEmbedder(40);
  async embed(texts: readonly string[], purpose: 'query' | 'passage'): Promise<Embedding> {
    if (this.callsLeft-- <= 0) throw new BackendUnavailableError('the next embedder went away');
    if (purpose === 'passage') this.embedded.push(...texts);
    return this.inner.embed(texts);
  }
}

const ref = { tenantId: 'ten_reindex', endUserId: null };
const NOTES = Array.from(
  { length: 12 },
  (_, i) =>
    `Note ${i}: the ${['heron', 'otter', 'badger', 'kestrel'][i % 4]} was seen near mill ${i} on a ${['wet', 'dry', 'cold'][i % 3]} morning.`,
);

async function open(dataDir: string, embedder: Embedder) {
  const stack = await openLocalStack({ dataDir, embedder });
  stacks.push(stack);
  return stack;
}

/** A folder whose vectors the first embedder made: 12 notes and a chat. */
async function folder() {
  const dataDir = mkdtempSync(join(tmpdir(), 'library-reindex-'));
  dirs.push(dataDir);
  const stack = await open(dataDir, new HashingEmbedder());
  for (const text of NOTES) await stack.services.capture.capture(ref, { text });
  await stack.services.chat.chat(ref, 'Where was the otter seen?');
  await stack.settled();
  const passages = stack.db.prepare('SELECT text FROM passages ORDER BY rowid').pluck().all() as string[];
  stacks.splice(stacks.indexOf(stack), 1);
  stack.close();
  return { dataDir, passages };
}

function reindex(dataDir: string, embedder: Embedder, batch = 4) {
  const db = openDatabase(join(dataDir, 'library.db'));
  return reindexLibrary({ store: new SqliteVectorReindex(db), embedder }, { batch }).finally(() => db.close());
}

describe('a data folder records its embedder', () => {
  it('refuses to start with another embedder, naming both and the way out', async () => {
    const { dataDir } = await folder();
    const error = await openLocalStack({ dataDir, embedder: new NextEmbedder() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbedderMismatchError);
    expect((error as Error).message).toContain(
      'made by hashing-test-embedder (64 dimensions), not by next-test-embedder (40 dimensions)',
    );
    expect((error as Error).message).toContain('npx library reindex');
    // The same name with other dimensions is another embedder too.
    await expect(openLocalStack({ dataDir, embedder: new HashingEmbedder(32) })).rejects.toThrow(
      /not by hashing-test-embedder \(32 dimensions\)/,
    );
    // Nothing was changed by the refusals: the first embedder still opens it.
    const stack = await open(dataDir, new HashingEmbedder());
    expect((await stack.services.search.search(ref, { q: 'otter mill', limit: 3 })).items).toHaveLength(3);
  });
});

describe('library reindex', () => {
  it('re-embeds every passage (documents, chat, creation alike) once, then search reads the new vectors only', async () => {
    const { dataDir, passages } = await folder();
    // As a folder last served by a version before reindex would be.
    const db = openDatabase(join(dataDir, 'library.db'));
    db.exec('DROP TABLE reindex_vectors');
    db.close();
    const next = new NextEmbedder();
    const outcome = await reindex(dataDir, next);
    expect(outcome).toMatchObject({
      from: 'hashing-test-embedder/64',
      alreadyCurrent: false,
      resumed: false,
      embedded: passages.length,
      total: passages.length,
    });
    expect([...next.embedded].sort()).toEqual([...passages].sort());

    const stack = await open(dataDir, next);
    const {
      vectors: [query],
    } = await next.embed(['the badger near mill 2'], 'query');
    const hits = await stack.ports.index.vectorSearch(ref, { vector: query!, limit: 50 });
    expect(hits).toHaveLength(passages.length); // every passage has a 40-dimension vector
    expect(hits[0]!.passage.text).toContain('badger was seen near mill 2');
    expect(stack.db.prepare('SELECT count(*) FROM reindex_vectors').pluck().get()).toBe(0);
    // Done: a second run has nothing to do, and the old embedder is refused now.
    expect(await reindex(dataDir, next)).toMatchObject({ alreadyCurrent: true, embedded: 0 });
    await expect(openLocalStack({ dataDir, embedder: new HashingEmbedder() })).rejects.toThrow(
      /made by next-test-embedder \(40 dimensions\)/,
    );
  });

  it('cut off mid-way: keeps what it made, the old vectors serve on, and a rerun embeds only the rest', async () => {
    const { dataDir, passages } = await folder();
    const next = new NextEmbedder();
    next.callsLeft = 2; // two batches of 4, then the embedder fails
    await expect(reindex(dataDir, next)).rejects.toThrow('the next embedder went away');
    expect(next.embedded).toHaveLength(8);

    // Unfinished: the new embedder is refused with what to do; the old one still searches with its own vectors.
    await expect(openLocalStack({ dataDir, embedder: next })).rejects.toThrow(
      /A reindex of this data folder to next-test-embedder \(40 dimensions\) is unfinished/,
    );
    const old = await open(dataDir, new HashingEmbedder());
    expect((await old.services.search.search(ref, { q: 'kestrel', limit: 20 })).items.length).toBeGreaterThan(0);
    // Meanwhile (the old server running): a note goes, another comes.
    const gone = (await old.services.documents.list(ref, { limit: 100 })).items.find((d) =>
      d.title?.startsWith('Note 0:'),
    )!;
    await old.services.documents.delete(ref, gone.id);
    await old.services.capture.capture(ref, { text: 'A late note: the kingfisher came back to the mill pond.' });
    await old.settled();
    stacks.splice(stacks.indexOf(old), 1);
    old.close();

    next.callsLeft = Infinity;
    const rest = await reindex(dataDir, next);
    expect(rest).toMatchObject({ resumed: true });
    const now = passages
      .filter((p) => !p.startsWith('Note 0:'))
      .concat('A late note: the kingfisher came back to the mill pond.');
    // Each passage still there was embedded once over both runs (the deleted one's early vector went with it).
    const once = next.embedded.filter((t) => !t.startsWith('Note 0:'));
    expect(once.sort()).toEqual([...now].sort());
    const stack = await open(dataDir, next);
    const {
      vectors: [query],
    } = await next.embed(['kingfisher mill pond'], 'query');
    const hits = await stack.ports.index.vectorSearch(ref, { vector: query!, limit: 50 });
    expect(hits).toHaveLength(now.length);
    expect(hits[0]!.passage.text).toContain('kingfisher');
  });

  it('a server left running with the old embedder refuses vectors once the reindex switched, until restarted', async () => {
    const { dataDir } = await folder();
    const old = await open(dataDir, new HashingEmbedder());
    expect((await old.services.search.search(ref, { q: 'heron', limit: 3 })).items.length).toBeGreaterThan(0);
    await reindex(dataDir, new NextEmbedder());
    const error = await old.services.search.search(ref, { q: 'heron', limit: 3 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BackendUnavailableError);
    expect((error as Error).message).toMatch(
      /re-embedded by next-test-embedder \(40 dimensions\) \(library reindex\) since this server started with hashing-test-embedder \(64 dimensions\): restart it/,
    );
  });
});

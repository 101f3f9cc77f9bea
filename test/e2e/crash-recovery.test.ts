import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SqliteSearchIndex } from '../../lambdas/adapters/local/sqlite-search-index.js';
import { chunkText } from '../../lambdas/core/chunking.js';
import { claimDocument } from '../../lambdas/core/document-record.js';
import { newId } from '../../lambdas/core/ids.js';
import type { Embedder, Embedding } from '../../lambdas/core/ports.js';
import { type LocalStack, openLocalStack } from '../../lambdas/wiring/local/local-stack.js';
import { HashingEmbedder } from '../support/hashing-embedder.js';
import { textPushRecord } from '../support/text-records.js';

const dataDir = mkdtempSync(join(tmpdir(), 'library-crash-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('a crash in the middle of a capture', () => {
  it('leaves nothing visible after restart: the half-written capture is rolled back', async () => {
    const embedder = new HashingEmbedder();
    const ref = { tenantId: 'ten_crash', endUserId: 'u' };
    const first = await openLocalStack({ dataDir, embedder });
    const kept = await first.services.capture.capture(ref, { text: 'a finished capture survives' });
    // Replay the steps of a capture and stop before it is marked ready, as a crash would.
    const id = newId('file');
    const blobKey = `blobs/${ref.tenantId}/${id}`;
    const text = 'interrupted capture text';
    const now = first.ports.clock.now();
    await first.ports.blobs.put(blobKey, Buffer.from(text), 'text/plain');
    await first.ports.documents.touchLibrary(ref, now);
    await first.ports.documents.claim({
      id,
      tenantId: ref.tenantId,
      endUserId: ref.endUserId,
      title: 't',
      filename: 't.txt',
      contentType: 'text/plain',
      sourceRef: null,
      sizeBytes: text.length,
      sha256: 'c'.repeat(64),
      kind: 'file',
      status: 'processing',
      createdAt: now,
      storage: 'service',
      lineCount: 1,
      pageCount: null,
      blobKey,
      passageCount: null,
      passagesEmbedded: 0,
      failureReason: null,
      metadata: {},
    });
    const passages = chunkText(text);
    await first.ports.index.put(ref, {
      itemId: id,
      kind: 'file_excerpt',
      title: 't',
      sourceRef: null,
      contentDate: now,
      text,
      passages,
      vectors: (await embedder.embed(passages.map((p) => p.text))).vectors,
    });
    first.close(); // the process dies here

    const second = await openLocalStack({ dataDir, embedder });
    try {
      expect((await second.services.documents.list(ref, { limit: 10 })).items.map((d) => d.id)).toEqual([kept.id]);
      expect(
        (await second.services.grep.grep(ref, { pattern: 'interrupted', caseSensitive: false, limit: 5 })).items,
      ).toEqual([]);
      expect(existsSync(join(dataDir, blobKey))).toBe(false);
      expect((await second.services.search.search(ref, { q: 'finished capture', limit: 5 })).items[0]!.id).toBe(
        kept.id,
      );
    } finally {
      second.close();
    }
  });
});

describe('a crash in the middle of a replacement by source_ref', () => {
  it('keeps the new version when the crash came after its index write took the old one out: one version findable, the old record gone', async () => {
    const embedder = new HashingEmbedder();
    const ref = { tenantId: 'ten_crash', endUserId: 'replacer' };
    const first = await openLocalStack({ dataDir, embedder });
    const old = await first.services.capture.capture(ref, {
      text: 'plan version one: kiwi',
      sourceRef: 'notes/plan.md',
    });
    await first.settled();
    // Replay a replacing capture up to its index write (the switch), then stop before its record learns it, as a crash would.
    const text = 'plan version two: mango';
    const now = first.ports.clock.now();
    const doc = textPushRecord(ref, text, { sourceRef: 'notes/plan.md', replaceSourceRef: true }, now);
    const claim = await claimDocument({ ...first.ports }, doc, null);
    if (!claim.claimed) throw new Error('the replay must claim');
    await first.ports.index.put(
      ref,
      {
        itemId: doc.id,
        kind: 'file_excerpt',
        title: doc.title,
        sourceRef: doc.sourceRef,
        contentDate: now,
        text,
        passages: chunkText(text),
        vectors: [],
      },
      claim.generation,
      { replaces: [old.id!] },
    );
    first.close(); // the process dies here

    const second = await openLocalStack({ dataDir, embedder });
    try {
      await second.settled();
      const listed = (await second.services.documents.list(ref, { limit: 10, sourceRef: 'notes/plan.md' })).items;
      expect(listed.map((d) => [d.id, d.status])).toEqual([[doc.id, 'ready']]);
      const grep = async (pattern: string) =>
        (await second.services.grep.grep(ref, { pattern, caseSensitive: false, limit: 5 })).items.map((r) => r.file_id);
      expect(await grep('mango')).toEqual([doc.id]);
      expect(await grep('kiwi')).toEqual([]);
      expect((await second.services.reading.content(ref, doc.id, { fromLine: 1, lines: 5 })).lines).toEqual([text]);
    } finally {
      second.close();
    }
  });
});

describe('a crash between a chat answer and its reply vectors', () => {
  it('the next start-up embeds the reply, so it is found by meaning again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'library-crash-chat-'));
    const embedder = new HashingEmbedder();
    /** Embeds queries; passage embeddings never finish (the process dies first). */
    const dying: Embedder = {
      name: embedder.name,
      dimensions: embedder.dimensions,
      embed: (texts, purpose) => (purpose === 'query' ? embedder.embed(texts) : new Promise<Embedding>(() => {})),
    };
    const ref = { tenantId: 'ten_crash', endUserId: 'u' };
    try {
      const seed = await openLocalStack({ dataDir: dir, embedder });
      await seed.services.capture.capture(ref, { text: 'The grey heron nests by the lake from February to June.' });
      seed.close();

      const first = await openLocalStack({ dataDir: dir, embedder: dying });
      const answer = await first.services.chat.chat(ref, 'When does the grey heron nest by the lake?');
      expect(answer.sources).toHaveLength(1);
      first.close(); // the process dies before the reply's vectors are attached

      const {
        vectors: [replyVector],
      } = await embedder.embed([answer.reply]);
      const replyByMeaning = async (stack: LocalStack) =>
        (await stack.ports.index.vectorSearch(ref, { vector: replyVector!, limit: 10, kinds: ['chat'] })).filter(
          (h) => h.passage.text === answer.reply,
        );
      const second = await openLocalStack({ dataDir: dir, embedder });
      try {
        await second.settled(); // the start-up mending runs in the background
        const found = await replyByMeaning(second);
        expect(found).toHaveLength(1);
        expect(found[0]!.rawScore).toBeGreaterThan(0.99);
        expect(await (second.ports.index as SqliteSearchIndex).itemsWithoutVectors()).toEqual([]);
      } finally {
        second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a crash in the middle of the ingestion queue', () => {
  it('resumes the backlog at the next start: every document ready, none lost, none twice, no passage embedded twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'library-crash-queue-'));
    const embedder = new HashingEmbedder();
    const embedded: string[] = [];
    /** Embeds a few steps, then never answers again: the process dies mid-drain. */
    let budget = 3;
    // Only the documents' passages count here: a stack also embeds the chat gate's calibration set at start (core/chat/calibration.ts).
    const isDocument = (texts: readonly string[]) => texts.every((t) => /^doc\d+ passage\d+ /.test(t));
    const dying: Embedder = {
      name: embedder.name,
      dimensions: embedder.dimensions,
      embed: (texts, purpose) => {
        if (purpose === 'query' || !isDocument(texts)) return embedder.embed(texts);
        if (budget-- <= 0) return new Promise<Embedding>(() => {});
        embedded.push(...texts);
        return embedder.embed(texts);
      },
    };
    const counting: Embedder = {
      name: embedder.name,
      dimensions: embedder.dimensions,
      embed: (texts, purpose) => {
        if (purpose === 'passage' && isDocument(texts)) embedded.push(...texts);
        return embedder.embed(texts);
      },
    };
    const ref = { tenantId: 'ten_queue', endUserId: null };
    const items = Array.from({ length: 12 }, (_, i) => ({
      text: Array.from({ length: 6 }, (_, p) => `doc${i} passage${p} ${'words of the note '.repeat(24)}`).join('\n\n'),
    }));
    try {
      const first = await openLocalStack({ dataDir: dir, embedder: dying });
      const receipts = await Promise.all(items.map((item) => first.services.capture.capture(ref, item)));
      expect(receipts.every((r) => r.status === 'created')).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const before = (await first.services.documents.list(ref, { limit: 50 })).items;
      expect(before.filter((d) => d.status === 'processing').length).toBeGreaterThan(0);
      first.close(); // the process dies with the queue half drained

      const second = await openLocalStack({ dataDir: dir, embedder: counting });
      try {
        await second.settled();
        const after = (await second.services.documents.list(ref, { limit: 50 })).items;
        expect(after.map((d) => d.id).sort()).toEqual(receipts.map((r) => r.id).sort());
        expect(after.every((d) => d.status === 'ready' && d.passages_embedded === d.passages)).toBe(true);
        expect(second.queue.all()).toEqual([]);
        // Every passage was embedded exactly once across both processes.
        const ids = embedded.map((t) => t.split(' ').slice(0, 2).join(' '));
        expect(ids.length).toBe(new Set(ids).size);
        expect(ids.length).toBe(12 * 6);
      } finally {
        second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

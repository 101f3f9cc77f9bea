import { randomUUID } from 'node:crypto';
import { LibraryErasedError } from '../../lambdas/core/errors.js';
import { type Filter, matchesFilter } from '../../lambdas/core/filter.js';
import { documentSubject } from '../../lambdas/core/filter-subject.js';
import type { DocumentChanges, DocumentRecord, EndUserRecord, LibraryRef } from '../../lambdas/core/model.js';
import type {
  BlobStore,
  ConversationStore,
  ConversationTurnRecord,
  DocumentStore,
  ExtractionResult,
  NewestFirstKey,
} from '../../lambdas/core/ports.js';

/**
 * In-memory fakes of the storage ports for unit tests of the core. They pass
 * the same contract suites as the real adapters (test/contract/fakes.test.ts),
 * so the core tests run against faithful stand-ins.
 */
const libKey = (ref: LibraryRef) => JSON.stringify([ref.tenantId, ref.endUserId]);
const newestFirst = (a: DocumentRecord, b: DocumentRecord) =>
  a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1;

export class InMemoryDocumentStore implements DocumentStore {
  readonly docs = new Map<string, DocumentRecord>();
  readonly libraries = new Map<
    string,
    { ref: LibraryRef; createdAt: string; lastActiveAt: string; generation: string }
  >();

  async touchLibrary(ref: LibraryRef, at: string) {
    const existing = this.libraries.get(libKey(ref));
    if (existing) {
      existing.lastActiveAt = at > existing.lastActiveAt ? at : existing.lastActiveAt;
      return existing.generation;
    }
    const generation = randomUUID();
    this.libraries.set(libKey(ref), { ref, createdAt: at, lastActiveAt: at, generation });
    return generation;
  }
  async libraryGeneration(ref: LibraryRef) {
    return this.libraries.get(libKey(ref))?.generation ?? null;
  }
  async libraryExists(ref: LibraryRef) {
    return this.libraries.has(libKey(ref));
  }
  private inLibrary(ref: LibraryRef) {
    return [...this.docs.values()].filter((d) => d.tenantId === ref.tenantId && d.endUserId === ref.endUserId);
  }
  async findBySha256(ref: LibraryRef, sha256: string) {
    return structuredClone(this.inLibrary(ref).find((d) => d.sha256 === sha256) ?? null);
  }
  async claim(doc: DocumentRecord, generation?: string) {
    if (generation !== undefined && this.libraries.get(libKey(doc))?.generation !== generation)
      throw new LibraryErasedError();
    const existing = this.inLibrary(doc).find((d) => d.sha256 === doc.sha256);
    if (existing) return { claimed: false as const, existing: structuredClone(existing) };
    this.docs.set(doc.id, structuredClone(doc));
    return { claimed: true as const };
  }
  private own(ref: LibraryRef, id: string) {
    const doc = this.docs.get(id);
    return doc && libKey(doc) === libKey(ref) ? doc : null;
  }
  async recordExtraction(ref: LibraryRef, id: string, result: ExtractionResult) {
    const doc = this.own(ref, id);
    if (doc) Object.assign(doc, result);
  }
  async recordEmbedded(ref: LibraryRef, id: string, passagesEmbedded: number) {
    const doc = this.own(ref, id);
    if (doc) doc.passagesEmbedded = Math.min(doc.passageCount ?? 0, doc.passagesEmbedded + passagesEmbedded);
  }
  async settle(ref: LibraryRef, id: string, outcome: { status: 'ready' } | { status: 'failed'; reason: string }) {
    const doc = this.own(ref, id);
    if (doc?.status !== 'processing') return;
    doc.status = outcome.status;
    if (outcome.status === 'ready') {
      doc.passagesEmbedded = doc.passageCount ?? 0;
      doc.failureReason = null;
    } else {
      doc.failureReason = outcome.reason;
      delete doc.replacing;
    }
  }
  async get(ref: LibraryRef, id: string) {
    const doc = this.docs.get(id);
    return doc && libKey(doc) === libKey(ref) ? structuredClone(doc) : null;
  }
  async list(
    ref: LibraryRef,
    options: { limit: number; after?: NewestFirstKey; sourceRef?: string; includeReplacing?: boolean; filter?: Filter },
  ) {
    return this.inLibrary(ref)
      .filter((d) => options.includeReplacing || !d.replacing)
      .filter((d) => options.sourceRef === undefined || d.sourceRef === options.sourceRef)
      .filter((d) => !options.filter || matchesFilter(documentSubject(d), options.filter))
      .filter(
        (d) => !options.after || newestFirst(d, { ...d, createdAt: options.after.createdAt, id: options.after.id }) > 0,
      )
      .sort(newestFirst)
      .slice(0, options.limit)
      .map((d) => structuredClone(d));
  }
  async update(ref: LibraryRef, id: string, changes: DocumentChanges) {
    const doc = this.own(ref, id);
    if (!doc) return null;
    if (changes.title !== undefined) doc.title = changes.title;
    if (changes.sourceRef !== undefined) doc.sourceRef = changes.sourceRef;
    if (changes.metadata !== undefined) doc.metadata = structuredClone(changes.metadata);
    return structuredClone(doc);
  }
  async completeReplacement(ref: LibraryRef, id: string, replaced: readonly string[]) {
    // At once (no await between): a list sees the old records or the new one.
    for (const old of replaced) if (old !== id && this.own(ref, old)) this.docs.delete(old);
    const doc = this.own(ref, id);
    if (doc) delete doc.replacing;
    return !!doc;
  }
  async listAll(ref: LibraryRef) {
    return this.inLibrary(ref).map((d) => structuredClone(d));
  }
  async delete(ref: LibraryRef, id: string) {
    const doc = this.docs.get(id);
    if (doc && libKey(doc) === libKey(ref)) this.docs.delete(id);
  }
  async deleteLibrary(ref: LibraryRef) {
    const documents = this.inLibrary(ref).map((d) => structuredClone(d));
    for (const doc of documents) this.docs.delete(doc.id);
    const generation = this.libraries.get(libKey(ref))?.generation ?? null;
    this.libraries.delete(libKey(ref));
    return { generation, documents };
  }
  async listStaleProcessing(olderThan: string) {
    return [...this.docs.values()].filter((d) => d.status === 'processing' && d.createdAt < olderThan);
  }
  async listEndUsers(tenantId: string, options: { limit: number; after?: string }): Promise<EndUserRecord[]> {
    return [...this.libraries.values()]
      .filter((l) => l.ref.tenantId === tenantId && l.ref.endUserId !== null && l.ref.endUserId > (options.after ?? ''))
      .sort((a, b) => (a.ref.endUserId! < b.ref.endUserId! ? -1 : 1))
      .slice(0, options.limit)
      .map((l) => ({
        id: l.ref.endUserId!,
        createdAt: l.createdAt,
        lastActiveAt: l.lastActiveAt,
        documentCount: this.inLibrary(l.ref).length,
      }));
  }
}

export class InMemoryBlobStore implements BlobStore {
  readonly blobs = new Map<string, Uint8Array>();
  async put(key: string, bytes: Uint8Array) {
    this.blobs.set(key, Uint8Array.from(bytes));
  }
  async get(key: string) {
    const bytes = this.blobs.get(key);
    return bytes ? Uint8Array.from(bytes) : null;
  }
  async delete(key: string) {
    this.blobs.delete(key);
  }
}

export class InMemoryConversationStore implements ConversationStore {
  /** Every turn, by library, conversation and run. */
  readonly turns = new Map<
    string,
    { ref: LibraryRef; conversationId: string; generation: string; turn: ConversationTurnRecord }
  >();
  private of(ref: LibraryRef, conversationId?: string) {
    return [...this.turns.entries()]
      .filter(
        ([, t]) =>
          libKey(t.ref) === libKey(ref) && (conversationId === undefined || t.conversationId === conversationId),
      )
      .sort(([, a], [, b]) => (a.turn.runId < b.turn.runId ? -1 : 1));
  }
  async recentTurns(ref: LibraryRef, conversationId: string, generation: string, limit: number) {
    const own = this.of(ref, conversationId)
      .filter(([, t]) => t.generation === generation)
      .map(([, t]) => structuredClone(t.turn));
    return limit > 0 ? own.slice(-limit) : [];
  }
  async append(
    ref: LibraryRef,
    conversationId: string,
    generation: string,
    turn: ConversationTurnRecord,
    keep: number,
  ) {
    this.turns.set(JSON.stringify([libKey(ref), conversationId, turn.runId]), {
      ref,
      conversationId,
      generation,
      turn: structuredClone(turn),
    });
    const all = this.of(ref, conversationId);
    for (const [key] of all.slice(0, Math.max(0, all.length - keep))) this.turns.delete(key);
  }
  async removeTurn(ref: LibraryRef, conversationId: string, runId: string) {
    this.turns.delete(JSON.stringify([libKey(ref), conversationId, runId]));
  }
  async removeLibrary(ref: LibraryRef, options: { keep?: string | null } = {}) {
    const gone = this.of(ref).filter(([, t]) => options.keep == null || t.generation !== options.keep);
    for (const [key] of gone) this.turns.delete(key);
    return gone.length;
  }
}

/** Wraps a port so a chosen method fails while `failing` is true (fault injection). */
export function withFault<T extends object>(target: T, method: keyof T, error: () => Error): T & { failing: boolean } {
  const wrapper = Object.create(target) as T & { failing: boolean };
  wrapper.failing = false;
  const original = (target[method] as unknown as (...args: unknown[]) => unknown).bind(target);
  (wrapper as Record<keyof T, unknown>)[method] = (...args: unknown[]) => {
    if (wrapper.failing) return Promise.reject(error());
    return original(...args);
  };
  return wrapper;
}

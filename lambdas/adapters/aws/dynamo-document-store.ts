import { randomUUID } from 'node:crypto';
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { LibraryErasedError } from '../../core/errors.js';
import { type Filter, matchesFilter } from '../../core/filter.js';
import { documentSubject } from '../../core/filter-subject.js';
import type { Metadata } from '../../core/metadata.js';
import type { DocumentChanges, DocumentRecord, EndUserRecord, LibraryRef } from '../../core/model.js';
import type { DocumentStore, ExtractionResult, NewestFirstKey } from '../../core/ports.js';
import { batchDeleteAll, pages } from './dynamo-pages.js';
import { callAws, ifCondition } from './errors.js';
import { DOCUMENTS_TABLE } from './table-schemas.js';

/**
 * Libraries, documents and dedup claims in one DynamoDB table. Every write
 * that decides something is a single conditional write (no transactions), so
 * the store also runs on DynamoDB-compatible local servers.
 *
 * | item             | pk                         | sk            | notes                                         |
 * |------------------|----------------------------|---------------|-----------------------------------------------|
 * | library          | LIBS#<tenant>              | S or U#<user> | createdAt, lastActiveAt, documentCount        |
 * | document (claim) | LIB#<tenant>#S or #U#<user>| SHA#<sha256>  | the whole record; `newestKey` for the LSI     |
 * | id pointer       | same                       | ID#<docId>    | sha256 of the claim it belongs to             |
 * | library reference| LIBREF#<tenant>#<generation>| LIB          | endUserId, generation, expiresAt (TTL)        |
 * | conversation turn| LIB#<tenant>#S or #U#<user>| CNV#<conv>#<run> | generation; dynamo-conversation-store.ts  |
 *
 * A document's `metadata` is kept as its JSON text (a string attribute): a
 * metadata number may be any finite double, and DynamoDB's numbers stop at
 * 38 digits and 1e126. A record written before metadata has none and reads
 * as {}. DynamoDB indexes none of it: the list evaluates a filter on each
 * record it reads (core/filter.ts, matchesFilter) and reads on until the
 * page is full or the library ends.
 *
 * A `processing` document also carries `processingPk`/`processingSince` (the
 * sparse `processing` GSI the sweeper reads); `settle` removes them in the
 * same conditional write that ends it. Its progress (`passagesEmbedded`) is
 * an atomic ADD, so concurrent embedding steps never lose a count.
 * The claim is one `PutItem ... attribute_not_exists(pk)` on the
 * (library, sha256) key: exactly one concurrent capture wins, the others read
 * the winner. Tenant ids never contain '#', so keys cannot collide across
 * tenants; every key starts with the tenant.
 *
 * Generations (docs/api-notes.md, "Erasure"): the library item carries
 * `generation`, a random token set when it is created. Documents and id
 * pointers carry the generation they were claimed in. An erasure deletes the
 * library item first (the generation ends), then the items of that
 * generation only, so a capture that created the library afresh meanwhile
 * keeps its documents. A claim checks, after its write, that its generation
 * is still the library's (a consistent read); if not, it removes what it
 * wrote and throws LibraryErasedError. Either the erasure's sweep (after the
 * library item is gone) sees the claim, or the claim's check sees the
 * library gone.
 *
 * Library references (libraryReference): messages kept outside this table
 * (the SQS job bodies, which SQS keeps for days whatever happens here) name
 * an end user's library by its generation, never by the end user id. The
 * reference item resolves it while the generation lives; an erasure deletes
 * it with the library item, so the body then reveals nothing and resolves to
 * nothing. Written like a claim (write, then read the generation again), so
 * a reference written while an erasure runs is removed by one or the other.
 */
const librariesPk = (tenantId: string) => `LIBS#${tenantId}`;
const librarySk = (ref: LibraryRef) => (ref.endUserId === null ? 'S' : `U#${ref.endUserId}`);
/** The partition of one library's items (documents, id pointers, conversation turns): every key starts with the tenant. */
export const libraryPartitionKey = (ref: LibraryRef) => `LIB#${ref.tenantId}#${librarySk(ref)}`;
const libPk = libraryPartitionKey;
const newestKey = (createdAt: string, id: string) => `${createdAt}|${id}`;
const referenceKey = (tenantId: string, generation: string) => ({ pk: `LIBREF#${tenantId}#${generation}`, sk: 'LIB' });

/**
 * How long a library reference lives after it was last written: past the 14
 * days the dead-letter queue keeps a job (counted from when it was first
 * sent), the longest a job body that names it can exist. DynamoDB's time to
 * live removes what an erasure cut short left behind.
 */
export const LIBRARY_REFERENCE_TTL_SECONDS = 15 * 24 * 3600;
const PROCESSING = 'processing';

type DocumentItem = Omit<DocumentRecord, 'metadata'> & {
  pk: string;
  sk: string;
  newestKey: string;
  processingPk?: string;
  processingSince?: string;
  /** The metadata's JSON text (absent on records written before metadata). */
  metadata?: string;
};

/** Metadata as stored: its JSON text; a map is read too, and nothing as {}. */
function readMetadata(stored: unknown): Metadata {
  if (typeof stored === 'string') return JSON.parse(stored) as Metadata;
  if (stored && typeof stored === 'object' && !Array.isArray(stored)) return stored as Metadata;
  return {};
}

const toRecord = (item: Record<string, unknown>): DocumentRecord => {
  const i = item as unknown as Partial<DocumentItem>;
  const status = i.status!;
  // Written before passage counts were kept: a ready document's count is unknown and reads as complete.
  const passageCount =
    i.passageCount === undefined ? (status === 'ready' ? (i.passagesEmbedded ?? 0) : null) : i.passageCount;
  return {
    id: i.id!,
    tenantId: i.tenantId!,
    endUserId: i.endUserId ?? null,
    title: i.title!,
    filename: i.filename ?? null,
    contentType: i.contentType!,
    sourceRef: i.sourceRef ?? null,
    sizeBytes: i.sizeBytes!,
    sha256: i.sha256!,
    kind: i.kind!,
    status,
    createdAt: i.createdAt!,
    storage: i.storage!,
    lineCount: i.lineCount!,
    pageCount: i.pageCount ?? null,
    blobKey: i.blobKey ?? null,
    passageCount,
    // Counted by atomic increments: a step repeated by a redelivered job may overcount, never past the passages.
    passagesEmbedded: Math.min(Number(i.passagesEmbedded ?? 0), passageCount ?? 0),
    failureReason: i.failureReason ?? null,
    ...(i.replacing === true ? { replacing: true } : {}),
    metadata: readMetadata(item.metadata),
  };
};

export class DynamoDocumentStore implements DocumentStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async touchLibrary(ref: LibraryRef, at: string): Promise<string> {
    let generation: string | undefined;
    // Not written when a later activity is already recorded: the library exists then, and its generation is read.
    await ifCondition('documents.touchLibrary', async () => {
      const result = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: librariesPk(ref.tenantId), sk: librarySk(ref) },
          UpdateExpression:
            'SET tenantId = :tenant, endUserId = :endUser, createdAt = if_not_exists(createdAt, :at), lastActiveAt = :at, documentCount = if_not_exists(documentCount, :zero), generation = if_not_exists(generation, :generation)',
          ConditionExpression: 'attribute_not_exists(lastActiveAt) OR lastActiveAt < :at',
          ExpressionAttributeValues: {
            ':tenant': ref.tenantId,
            ':endUser': ref.endUserId,
            ':at': at,
            ':zero': 0,
            ':generation': randomUUID(),
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      generation = result.Attributes?.generation as string | undefined;
    });
    // Erased between the two calls: touch again, which creates it afresh.
    return generation ?? (await this.libraryGeneration(ref)) ?? this.touchLibrary(ref, at);
  }

  async libraryGeneration(ref: LibraryRef, options: { readOnly?: boolean } = {}): Promise<string | null> {
    const key = { pk: librariesPk(ref.tenantId), sk: librarySk(ref) };
    const result = await callAws('documents.libraryGeneration', () =>
      this.client.send(new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true })),
    );
    if (!result.Item) return null;
    if (typeof result.Item.generation === 'string') return result.Item.generation;
    // Search and grep may only read the table: their untagged entries are read as generation ''.
    if (options.readOnly) return '';
    // A library made before generations: it gets one now (unless it was erased meanwhile).
    let generation: string | null = null;
    await ifCondition('documents.libraryGeneration', async () => {
      const updated = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key,
          UpdateExpression: 'SET generation = if_not_exists(generation, :generation)',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':generation': randomUUID() },
          ReturnValues: 'ALL_NEW',
        }),
      );
      generation = (updated.Attributes?.generation as string | undefined) ?? null;
    });
    return generation;
  }

  /**
   * An opaque reference to the library's generation `generation`, for a
   * message kept outside this table: the generation itself (random, never
   * reused), with an item that resolves it back to the library while that
   * generation lives. Returns the reference; it resolves to nothing once the
   * library is erased (or when it already was, by the time of this call).
   */
  async libraryReference(ref: LibraryRef, generation: string): Promise<string> {
    const key = referenceKey(ref.tenantId, generation);
    const expiresAt = Math.floor(Date.now() / 1000) + LIBRARY_REFERENCE_TTL_SECONDS;
    await callAws('documents.libraryReference', () =>
      this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...key, tenantId: ref.tenantId, endUserId: ref.endUserId, generation, expiresAt },
        }),
      ),
    );
    // As a claim: the generation read again after the write; an erasure that ended it either deletes this item after, or is seen here.
    if ((await this.libraryGeneration(ref, { readOnly: true })) !== generation)
      await this.deleteReference(ref.tenantId, generation);
    return generation;
  }

  /** The library a reference names, while its generation lives; null once it was erased (a reference it left behind goes now). */
  async resolveLibraryReference(tenantId: string, reference: string): Promise<LibraryRef | null> {
    if (!reference || reference.includes('#')) return null;
    const result = await callAws('documents.resolveLibraryReference', () =>
      this.client.send(
        new GetCommand({ TableName: this.tableName, Key: referenceKey(tenantId, reference), ConsistentRead: true }),
      ),
    );
    const item = result.Item;
    if (!item || (item.endUserId !== null && typeof item.endUserId !== 'string')) return null;
    const ref: LibraryRef = { tenantId, endUserId: item.endUserId as string | null };
    if ((await this.libraryGeneration(ref, { readOnly: true })) === reference) return ref;
    // Its library was erased and the reference outlived it (the erasure stopped half way): it names nobody from now on.
    await this.deleteReference(tenantId, reference);
    return null;
  }

  private async deleteReference(tenantId: string, generation: string): Promise<void> {
    await callAws('documents.deleteReference', () =>
      this.client.send(new DeleteCommand({ TableName: this.tableName, Key: referenceKey(tenantId, generation) })),
    );
  }

  async libraryExists(ref: LibraryRef): Promise<boolean> {
    const result = await callAws('documents.libraryExists', () =>
      this.client.send(
        new GetCommand({
          TableName: this.tableName,
          Key: { pk: librariesPk(ref.tenantId), sk: librarySk(ref) },
          ConsistentRead: true,
        }),
      ),
    );
    return !!result.Item;
  }

  async findBySha256(ref: LibraryRef, sha256: string): Promise<DocumentRecord | null> {
    const result = await callAws('documents.findBySha256', () =>
      this.client.send(
        new GetCommand({
          TableName: this.tableName,
          Key: { pk: libPk(ref), sk: `SHA#${sha256}` },
          ConsistentRead: true,
        }),
      ),
    );
    return result.Item ? toRecord(result.Item) : null;
  }

  async claim(
    doc: DocumentRecord,
    generation?: string,
  ): Promise<{ claimed: true } | { claimed: false; existing: DocumentRecord }> {
    const ref: LibraryRef = { tenantId: doc.tenantId, endUserId: doc.endUserId };
    const tag = generation !== undefined ? { generation } : {};
    // The pointer first: a crash after it leaves only a pointer that `get` ignores.
    await callAws('documents.claim', () =>
      this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { pk: libPk(ref), sk: `ID#${doc.id}`, sha256: doc.sha256, ...tag },
        }),
      ),
    );
    const claimed = await ifCondition('documents.claim', () =>
      this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...this.toItem(ref, doc), ...tag },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );
    if (!claimed) {
      await this.deletePointer(ref, doc.id);
      const existing = await this.findBySha256(ref, doc.sha256);
      // The winner was deleted between our write and this read: claim again.
      return existing ? { claimed: false, existing } : this.claim(doc, generation);
    }
    // After the write, the generation is read again (consistently): an erasure that ended it either sweeps this claim or is seen here.
    if (generation !== undefined && (await this.libraryGeneration(ref)) !== generation) {
      await ifCondition('documents.claim', () =>
        this.client.send(
          new DeleteCommand({
            TableName: this.tableName,
            Key: { pk: libPk(ref), sk: `SHA#${doc.sha256}` },
            ConditionExpression: 'id = :id',
            ExpressionAttributeValues: { ':id': doc.id },
          }),
        ),
      );
      await this.deletePointer(ref, doc.id);
      throw new LibraryErasedError();
    }
    await this.addToCount(ref, 1);
    return { claimed: true };
  }

  private toItem(ref: LibraryRef, doc: DocumentRecord): DocumentItem {
    const { replacing, metadata, ...fields } = doc;
    return {
      ...fields,
      metadata: JSON.stringify(metadata ?? {}),
      // Present only while a replacement waits (the list leaves such documents out).
      ...(replacing ? { replacing: true } : {}),
      pk: libPk(ref),
      sk: `SHA#${doc.sha256}`,
      newestKey: newestKey(doc.createdAt, doc.id),
      ...(doc.status === 'processing' ? { processingPk: PROCESSING, processingSince: doc.createdAt } : {}),
    };
  }

  private async addToCount(ref: LibraryRef, delta: number): Promise<void> {
    // Not written when the library record is gone.
    await ifCondition('documents.count', () =>
      this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: librariesPk(ref.tenantId), sk: librarySk(ref) },
          UpdateExpression: 'ADD documentCount :delta',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':delta': delta },
        }),
      ),
    );
  }

  private async deletePointer(ref: LibraryRef, id: string): Promise<void> {
    await callAws('documents.deletePointer', () =>
      this.client.send(new DeleteCommand({ TableName: this.tableName, Key: { pk: libPk(ref), sk: `ID#${id}` } })),
    );
  }

  /** The sha256 key of a document id, or null when the id is unknown in this library. */
  private async shaOf(ref: LibraryRef, id: string): Promise<string | null> {
    const pointer = await callAws('documents.get', () =>
      this.client.send(
        new GetCommand({ TableName: this.tableName, Key: { pk: libPk(ref), sk: `ID#${id}` }, ConsistentRead: true }),
      ),
    );
    return (pointer.Item?.sha256 as string | undefined) ?? null;
  }

  async get(ref: LibraryRef, id: string): Promise<DocumentRecord | null> {
    const sha = await this.shaOf(ref, id);
    if (!sha) return null;
    const doc = await this.findBySha256(ref, sha);
    return doc && doc.id === id ? doc : null;
  }

  async recordExtraction(ref: LibraryRef, id: string, result: ExtractionResult): Promise<void> {
    // Not written when the document was deleted meanwhile: nothing to record then.
    await this.updateDocument(ref, id, 'recordExtraction', {
      expression:
        'SET #kind = :kind, contentType = :contentType, lineCount = :lineCount, pageCount = :pageCount, passageCount = :passageCount',
      names: { '#kind': 'kind' },
      values: {
        ':kind': result.kind,
        ':contentType': result.contentType,
        ':lineCount': result.lineCount,
        ':pageCount': result.pageCount,
        ':passageCount': result.passageCount,
      },
    });
  }

  async recordEmbedded(ref: LibraryRef, id: string, passagesEmbedded: number): Promise<void> {
    await this.updateDocument(ref, id, 'recordEmbedded', {
      expression: 'ADD passagesEmbedded :n',
      values: { ':n': passagesEmbedded },
    });
  }

  async settle(
    ref: LibraryRef,
    id: string,
    outcome: { status: 'ready' } | { status: 'failed'; reason: string },
  ): Promise<void> {
    const values: Record<string, unknown> = { ':processing': PROCESSING, ':status': outcome.status };
    let sets: string;
    if (outcome.status === 'ready') {
      values[':zero'] = 0;
      sets = '#status = :status, passagesEmbedded = if_not_exists(passageCount, :zero), failureReason = :none';
      values[':none'] = null;
    } else {
      sets = '#status = :status, failureReason = :reason';
      values[':reason'] = outcome.reason;
    }
    // Only a document still processing is settled (and leaves the processing index); one gone or settled is left alone.
    await this.updateDocument(ref, id, 'settle', {
      expression: `SET ${sets} REMOVE processingPk, processingSince, replacing`,
      condition: '#status = :processing',
      names: { '#status': 'status' },
      values,
    });
  }

  /**
   * Updates a document's item while it is still that document (conditioned
   * on its id, plus `condition`): one that is gone or was replaced by another
   * capture of the same payload is left alone.
   */
  private async updateDocument(
    ref: LibraryRef,
    id: string,
    what: string,
    update: { expression: string; condition?: string; names?: Record<string, string>; values: Record<string, unknown> },
  ): Promise<void> {
    const sha = await this.shaOf(ref, id);
    if (!sha) return;
    await ifCondition(`documents.${what}`, () =>
      this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: libPk(ref), sk: `SHA#${sha}` },
          UpdateExpression: update.expression,
          ConditionExpression: update.condition ? `id = :id AND ${update.condition}` : 'id = :id',
          ...(update.names ? { ExpressionAttributeNames: update.names } : {}),
          ExpressionAttributeValues: { ':id': id, ...update.values },
        }),
      ),
    );
  }

  /**
   * Changes a document's title, source_ref (null: none, written as a claim
   * writes it) and metadata (replaced whole), in one write conditioned on
   * the record still being that document. Returns the record as written,
   * or null when the library holds no such document.
   */
  async update(ref: LibraryRef, id: string, changes: DocumentChanges): Promise<DocumentRecord | null> {
    const sets: string[] = [];
    const values: Record<string, unknown> = { ':id': id };
    if (changes.title !== undefined) {
      sets.push('title = :title');
      values[':title'] = changes.title;
    }
    if (changes.sourceRef !== undefined) {
      sets.push('sourceRef = :sourceRef');
      values[':sourceRef'] = changes.sourceRef;
    }
    if (changes.metadata !== undefined) {
      sets.push('metadata = :metadata');
      values[':metadata'] = JSON.stringify(changes.metadata);
    }
    if (!sets.length) return this.get(ref, id);
    const sha = await this.shaOf(ref, id);
    if (!sha) return null;
    let updated: DocumentRecord | null = null;
    await ifCondition('documents.update', async () => {
      const result = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: libPk(ref), sk: `SHA#${sha}` },
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: 'id = :id',
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      );
      updated = result.Attributes ? toRecord(result.Attributes) : null;
    });
    return updated;
  }

  /**
   * Newest first from `after`. The metadata filter (and `kind`, `title`,
   * ...: core/filter.ts) is evaluated here on each record read, page after
   * page, until `limit` records match or the library ends: a page is short
   * only at the end, and the next one (after its last record) skips nothing.
   */
  async list(
    ref: LibraryRef,
    options: { limit: number; after?: NewestFirstKey; sourceRef?: string; includeReplacing?: boolean; filter?: Filter },
  ): Promise<DocumentRecord[]> {
    const out: DocumentRecord[] = [];
    const values: Record<string, unknown> = { ':pk': libPk(ref) };
    let condition = 'pk = :pk';
    if (options.after) {
      condition += ' AND newestKey < :after';
      values[':after'] = newestKey(options.after.createdAt, options.after.id);
    }
    const filters: string[] = [];
    if (options.sourceRef !== undefined) {
      filters.push('sourceRef = :sourceRef');
      values[':sourceRef'] = options.sourceRef;
    }
    // A replacement still waiting for its text is not listed (core/replacement.ts).
    if (!options.includeReplacing) filters.push('attribute_not_exists(replacing)');
    const filter = filters.length ? filters.join(' AND ') : undefined;
    const newest = this.queryPages({
      IndexName: DOCUMENTS_TABLE.localIndexes[0].name,
      KeyConditionExpression: condition,
      FilterExpression: filter,
      ExpressionAttributeValues: values,
      ScanIndexForward: false,
      ConsistentRead: true,
      // Filtered: pages of 100 at least, since some (or most) of what is read is left out.
      Limit: filter || options.filter ? Math.max(options.limit, 100) : options.limit,
    });
    for await (const items of newest) {
      for (const item of items) {
        if (out.length >= options.limit) break;
        const record = toRecord(item);
        if (!options.filter || matchesFilter(documentSubject(record), options.filter)) out.push(record);
      }
      if (out.length >= options.limit) break;
    }
    return out;
  }

  /**
   * Single conditional writes (no transactions, as everywhere in this store):
   * the new record is listed first, then the old ones are deleted, so a list
   * in between sees both for that instant, never neither.
   */
  async completeReplacement(ref: LibraryRef, id: string, replaced: readonly string[]): Promise<boolean> {
    const sha = await this.shaOf(ref, id);
    const stands =
      !!sha &&
      (await ifCondition('documents.completeReplacement', () =>
        this.client.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: { pk: libPk(ref), sk: `SHA#${sha}` },
            UpdateExpression: 'REMOVE replacing',
            ConditionExpression: 'id = :id',
            ExpressionAttributeValues: { ':id': id },
          }),
        ),
      ));
    for (const old of replaced) if (old !== id) await this.delete(ref, old);
    return stands;
  }

  async listAll(ref: LibraryRef): Promise<DocumentRecord[]> {
    const items = await this.queryAll(libPk(ref), 'SHA#');
    return items.map(toRecord);
  }

  async delete(ref: LibraryRef, id: string): Promise<void> {
    const sha = await this.shaOf(ref, id);
    if (!sha) return;
    const deleted = await ifCondition('documents.delete', () =>
      this.client.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: { pk: libPk(ref), sk: `SHA#${sha}` },
          ConditionExpression: 'id = :id',
          ExpressionAttributeValues: { ':id': id },
        }),
      ),
    );
    await this.deletePointer(ref, id);
    if (deleted) await this.addToCount(ref, -1);
  }

  async deleteLibrary(ref: LibraryRef): Promise<{ generation: string | null; documents: DocumentRecord[] }> {
    // The library item first: its generation ends here (claims under it undo themselves from now on).
    const old = await callAws('documents.deleteLibrary', () =>
      this.client.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: { pk: librariesPk(ref.tenantId), sk: librarySk(ref) },
          ReturnValues: 'ALL_OLD',
        }),
      ),
    );
    const generation = old.Attributes ? ((old.Attributes.generation as string | undefined) ?? '') : null;
    // Its reference goes with it: a queued job's body that names it resolves to nothing from here on.
    if (generation) await this.deleteReference(ref.tenantId, generation);
    const items = await this.queryAll(libPk(ref));
    // A library created afresh since keeps its items: only those of no live generation go.
    const live = await this.libraryGeneration(ref);
    const ended = items.filter((item) => {
      const tag = item.generation as string | undefined;
      return tag === undefined || tag !== live;
    });
    const keys = ended.map((item) => ({ pk: item.pk, sk: item.sk }));
    await batchDeleteAll(this.client, this.tableName, 'documents.deleteLibrary', keys);
    const documents = ended.filter((item) => String(item.sk).startsWith('SHA#')).map(toRecord);
    return { generation, documents };
  }

  async listStaleProcessing(olderThan: string): Promise<DocumentRecord[]> {
    const out: DocumentRecord[] = [];
    const stale = this.queryPages({
      IndexName: DOCUMENTS_TABLE.globalIndexes[0].name,
      KeyConditionExpression: 'processingPk = :processing AND processingSince < :olderThan',
      ExpressionAttributeValues: { ':processing': PROCESSING, ':olderThan': olderThan },
    });
    for await (const items of stale) out.push(...items.map(toRecord).filter((d) => d.status === 'processing'));
    return out;
  }

  async listEndUsers(tenantId: string, options: { limit: number; after?: string }): Promise<EndUserRecord[]> {
    const page = await callAws('documents.query', () =>
      this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND sk > :after',
          ExpressionAttributeValues: { ':pk': librariesPk(tenantId), ':after': `U#${options.after ?? ''}` },
          ConsistentRead: true,
          Limit: options.limit,
        }),
      ),
    );
    return (page.Items ?? []).map((item) => ({
      id: item.endUserId as string,
      createdAt: item.createdAt as string,
      lastActiveAt: item.lastActiveAt as string,
      documentCount: Math.max(0, Number(item.documentCount ?? 0)),
    }));
  }

  /** The items of each page of a query, page after page. */
  private async *queryPages(
    input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>,
  ): AsyncGenerator<Array<Record<string, unknown>>> {
    const query = pages('documents.query', (start) =>
      this.client.send(new QueryCommand({ TableName: this.tableName, ...input, ExclusiveStartKey: start })),
    );
    for await (const page of query) yield (page.Items ?? []) as Array<Record<string, unknown>>;
  }

  private async queryAll(pk: string, skPrefix?: string): Promise<Array<Record<string, unknown>>> {
    const all: Array<Record<string, unknown>> = [];
    const query = this.queryPages({
      KeyConditionExpression: skPrefix ? 'pk = :pk AND begins_with(sk, :prefix)' : 'pk = :pk',
      ExpressionAttributeValues: skPrefix ? { ':pk': pk, ':prefix': skPrefix } : { ':pk': pk },
      ConsistentRead: true,
    });
    for await (const items of query) all.push(...items);
    return all;
  }
}

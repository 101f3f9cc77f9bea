/**
 * The ports: what the core needs from the world. Each has a local adapter
 * (lambdas/adapters/local) and an AWS adapter (lambdas/adapters/aws), and one
 * contract test suite that both pass (test/contract).
 */
import type { Filter } from './filter.js';
import type {
  ApiKeyRecord,
  DocumentChanges,
  DocumentRecord,
  EndUserRecord,
  GrepCandidate,
  IndexItem,
  ItemKind,
  LibraryRef,
  Passage,
  PassageHit,
  TenantRecord,
} from './model.js';

/** Position in a newest-first list: the last item seen. */
export interface NewestFirstKey {
  createdAt: string;
  id: string;
}

/** A claim won, or lost to the document that holds the identity already. */
export type ClaimResult = { claimed: true } | { claimed: false; existing: DocumentRecord };

/** Documents, libraries (end users) and the dedup receipts. */
export interface DocumentStore {
  /**
   * Records activity in a library, creating it (and so the end user) on first
   * use. Returns the library's generation: an opaque token, new and never
   * reused each time the library is created (again after an erasure). Writes
   * conditioned on it are refused once the library is erased.
   */
  touchLibrary(ref: LibraryRef, at: string): Promise<string>;
  libraryExists(ref: LibraryRef): Promise<boolean>;
  /**
   * The library's current generation; null when it does not exist (never
   * created, or erased). A library made before generations is given one,
   * unless `readOnly` (a read path, whose function may only read): then ''
   * is returned, the generation of its untagged index entries.
   */
  libraryGeneration(ref: LibraryRef, options?: { readOnly?: boolean }): Promise<string | null>;
  findBySha256(ref: LibraryRef, sha256: string): Promise<DocumentRecord | null>;
  /**
   * Claims the (library, sha256) identity for this document. Exactly one of any
   * number of concurrent claims for the same identity wins; the others get the winner.
   * With `generation`, the claim holds only in that generation of the library:
   * when the library was erased (its generation ended) it throws
   * LibraryErasedError and leaves nothing.
   */
  claim(doc: DocumentRecord, generation?: string): Promise<ClaimResult>;
  /**
   * Optional: claims several documents of one library as `claim` claims
   * each, in one write (locally one transaction, so one commit): an ended
   * generation refuses them all and leaves nothing. A store without it is
   * claimed one document at a time (core/capture-group.ts).
   */
  claimMany?(docs: readonly DocumentRecord[], generation: string): Promise<ClaimResult[]>;
  get(ref: LibraryRef, id: string): Promise<DocumentRecord | null>;
  /**
   * Newest first, strictly after `after` when given. A document still
   * `replacing` (a replacement waiting for its text) is left out unless
   * `includeReplacing`.
   */
  list(
    ref: LibraryRef,
    options: { limit: number; after?: NewestFirstKey; sourceRef?: string; includeReplacing?: boolean; filter?: Filter },
  ): Promise<DocumentRecord[]>;
  /**
   * Changes a document's title, source_ref or metadata (PATCH); returns the
   * updated record, or null when the library holds no such document.
   */
  update(ref: LibraryRef, id: string, changes: DocumentChanges): Promise<DocumentRecord | null>;
  /**
   * A replacement's switch of the records: document `id` stops `replacing`
   * (it is listed from now on) and the records `replaced` are deleted (the
   * library's records only; missing ones are no error). Locally one
   * transaction; on DynamoDB the new record first, then the old ones (a list
   * in between sees both, never neither). Returns false when `id` is gone
   * (the old records are deleted all the same).
   */
  completeReplacement(ref: LibraryRef, id: string, replaced: readonly string[]): Promise<boolean>;
  /** Every document of a library, for erasure. */
  listAll(ref: LibraryRef): Promise<DocumentRecord[]>;
  delete(ref: LibraryRef, id: string): Promise<void>;
  /**
   * Ends the library's generation (from then on, claims under it are refused
   * and a touch creates the library afresh with a new generation), then
   * removes every document record of that generation. Returns the ended
   * generation (null when the library did not exist) and the records removed.
   */
  deleteLibrary(ref: LibraryRef): Promise<{ generation: string | null; documents: DocumentRecord[] }>;
  /** Documents left `processing` by a crash of the process that was capturing them. */
  listStaleProcessing(olderThan: string): Promise<DocumentRecord[]>;
  listEndUsers(tenantId: string, options: { limit: number; after?: string }): Promise<EndUserRecord[]>;
  /** Records what extraction found (text known, passages counted): the document's text is now in the index. */
  recordExtraction(ref: LibraryRef, id: string, result: ExtractionResult): Promise<void>;
  /** Records how many of the document's passages have their vectors (progress of `processing`). */
  recordEmbedded(ref: LibraryRef, id: string, passagesEmbedded: number): Promise<void>;
  /**
   * Ends a `processing` document: `ready`, or `failed` with its reason (a
   * failed replacement stops `replacing`: it is listed, and replaced nothing).
   * Does nothing to a document that is gone.
   */
  settle(
    ref: LibraryRef,
    id: string,
    outcome: { status: 'ready' } | { status: 'failed'; reason: string },
  ): Promise<void>;
}

/** What extraction learns about a document whose bytes were queued. */
export type ExtractionResult = Pick<
  DocumentRecord,
  'kind' | 'contentType' | 'lineCount' | 'pageCount' | 'passageCount'
>;

/** One document whose background indexing (extraction, then embedding) is left to a worker. */
export interface IngestJob {
  tenantId: string;
  endUserId: string | null;
  documentId: string;
  /**
   * The library generation the document was claimed in, when the capture
   * knows it: a queue kept outside the store (SQS) names the library by it
   * instead of by the end user id, so a job body outlives an erasure without
   * naming anyone (adapters/aws/sqs-ingest-queue.ts).
   */
  generation?: string;
}

/**
 * The durable queue of background indexing work: SQS on AWS, a table in the
 * same SQLite file locally. Throws BackendUnavailableError when it cannot take the job.
 */
export interface IngestQueue {
  enqueue(job: IngestJob): Promise<void>;
  /** Optional: queues several jobs in one write (locally one transaction); a queue without it takes them one at a time. */
  enqueueMany?(jobs: readonly IngestJob[]): Promise<void>;
  /**
   * True when no background work waits or runs, so a small interactive capture
   * may be indexed within its own request without queueing behind anyone.
   */
  isIdle(): boolean;
}

/** Raw bytes. Keys are chosen by the core and never contain user input. */
export interface BlobStore {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<Uint8Array | null>;
  delete(key: string): Promise<void>;
  /**
   * Optional: a URL anyone holding it may GET the object at, for
   * `expiresInSeconds`, answered with this Content-Type and
   * Content-Disposition (an S3 presigned URL). Makes no request and does not
   * check that the object exists. A store without it (a local folder) has
   * its bytes served through the service.
   */
  downloadUrl?(
    key: string,
    options: { expiresInSeconds: number; contentType: string; contentDisposition: string },
  ): Promise<string>;
}

/**
 * Every read of the index names the library's live generation (the core
 * reads it once per request): only entries written under it are returned,
 * and untagged ones (written before generations, so of the library's first
 * generation; every generational erasure removes them). An entry of an
 * ended generation (its writer died before its own check removed it) is
 * never returned. Left out only by tools that read without a library record.
 */
export interface GenerationScoped {
  generation?: string;
}

/**
 * Only items that match the filter (core/filter.ts) are read, inside the
 * index and before ranking: a query returns its best `limit` matching
 * items, never fewer because better ones did not match.
 */
export interface Filtered {
  filter?: Filter;
}

export interface KeywordQuery extends GenerationScoped, Filtered {
  text: string;
  limit: number;
  kinds?: readonly ItemKind[];
}

export interface VectorQuery extends GenerationScoped, Filtered {
  vector: Float32Array;
  limit: number;
  kinds?: readonly ItemKind[];
}

export interface GrepScan extends GenerationScoped, Filtered {
  pattern: string;
  caseSensitive: boolean;
  itemId?: string;
  /** Resume at this document (inclusive) in newest-first order: part of it is still to read. */
  startAt?: NewestFirstKey;
  /** Resume after this document (exclusive): it was read whole. At most one of startAt and startAfter. */
  startAfter?: NewestFirstKey;
}

export interface PutOptions {
  /** Item ids of the same library that this item replaces: removed by the same write. */
  replaces?: readonly string[];
}

/** Passages, their vectors, the keyword index and the literal text for grep. */
export interface SearchIndex {
  /**
   * Adds or replaces one item, all of its passages at once, tagged with the
   * library generation it was written under. An index that can tell (the
   * local one, atomically) refuses a generation that removeLibrary ended:
   * it throws LibraryErasedError and writes nothing. (Elsewhere the core
   * checks the generation again after the write: see core/generations.ts.)
   * With `replaces`, those items of the same library are removed by the same
   * write, after the new item is in (a replacement by source_ref): locally
   * in the same transaction, so no read sees neither or both; on OpenSearch
   * in the same `_bulk` request and refresh.
   */
  put(ref: LibraryRef, item: IndexItem, generation?: string, options?: PutOptions): Promise<void>;
  /**
   * Optional: puts several items of one library as `put` puts each, in one
   * write (locally one transaction: one commit and one new keyword segment
   * for all of them), all or none. An index without it is written one item
   * at a time.
   */
  putMany?(ref: LibraryRef, items: readonly IndexItem[], generation?: string): Promise<void>;
  remove(ref: LibraryRef, itemId: string): Promise<void>;
  /**
   * Changes an item's title, source_ref or metadata (PATCH) in place, its
   * passages and vectors untouched; searches, grep and filters see the
   * change once it returns. Returns false when the item is not there.
   */
  updateItem(ref: LibraryRef, itemId: string, changes: DocumentChanges): Promise<boolean>;
  /**
   * Removes a library's items; returns how many of each kind were removed.
   * With a generation, only the items written under it (and untagged ones),
   * and the generation is ended: later puts under it are refused where the
   * index can tell. Items of a newer generation stay.
   */
  removeLibrary(ref: LibraryRef, generation?: string | null): Promise<Record<ItemKind, number>>;
  /**
   * Optional: rewrites storage so text removed so far cannot be read back
   * from the files (the local index: FTS5 segments merged, the WAL
   * checkpointed and truncated). Run after an erasure or a deletion.
   */
  scrub?(): Promise<void>;
  keywordSearch(ref: LibraryRef, query: KeywordQuery): Promise<PassageHit[]>;
  vectorSearch(ref: LibraryRef, query: VectorQuery): Promise<PassageHit[]>;
  /**
   * Documents (kind file_excerpt or image) that may contain the pattern, newest
   * first: every document that contains it must be yielded (a superset is fine;
   * the core checks each line). Read lazily, as the caller asks: the caller
   * stops when its page's budget runs out (core/grep.ts), so an adapter reads
   * ahead a bounded amount of text (a few MiB or one document), never the
   * whole library.
   */
  grepCandidates(ref: LibraryRef, scan: GrepScan): AsyncIterable<GrepCandidate>;
  /** One document's text, exactly as grep reads it; null when the library holds no such document (in that generation: GenerationScoped). */
  documentText(ref: LibraryRef, itemId: string, generation?: string): Promise<string | null>;
  /**
   * Up to `limit` passages of an item that have no vector yet, lowest ordinal
   * first, skipping the ordinals in `skip` (being embedded right now), from
   * ordinal `from` on (the caller knows every passage below it has one).
   */
  passagesWithoutVectors(
    ref: LibraryRef,
    itemId: string,
    options: { limit: number; skip?: ReadonlySet<number>; from?: number },
  ): Promise<Passage[]>;
  /**
   * Gives passages of an item their vectors, by ordinal. Returns false and
   * writes nothing when the item is no longer there (an erasure that came
   * first stays done).
   */
  attachPassageVectors(
    ref: LibraryRef,
    itemId: string,
    vectors: ReadonlyArray<{ ordinal: number; vector: Float32Array }>,
  ): Promise<boolean>;
}

/**
 * An index that also takes an item before its vectors (`put` with
 * `vectors: []`: words find it at once, meaning once they are attached), so a
 * chat can answer before its reply is embedded. The local index offers it;
 * on AWS a chat embeds first and writes each item once.
 */
export interface DeferredVectorIndex extends Pick<SearchIndex, 'attachPassageVectors'> {
  /** The items still without vectors (their embedding failed, or the process stopped first), with their passages' texts. */
  itemsWithoutVectors(): Promise<Array<{ ref: LibraryRef; itemId: string; texts: string[] }>>;
}

/**
 * Work a request starts but does not wait for (embedding a chat's reply so
 * later searches find it by meaning). Only where the process outlives the
 * response: not on a Lambda, which is frozen once it has answered.
 */
export interface BackgroundWork {
  /** Starts the task; a failure is the runner's to report, never the request's. */
  run(what: string, task: () => Promise<void>): Promise<void>;
}

/** What one embed() call produced: the vectors, and the tokens the model read for them (spend). */
export interface Embedding {
  /** Unit-length vectors, one per text, in order. */
  vectors: Float32Array[];
  tokens: number;
}

export interface Embedder {
  readonly name: string;
  readonly dimensions: number;
  embed(texts: readonly string[], purpose: 'query' | 'passage'): Promise<Embedding>;
}

export interface ExtractionInput {
  bytes: Uint8Array;
  declaredContentType: string;
  filename: string;
}

export interface ExtractedText {
  text: string;
  kind: 'file' | 'image';
  /** The type the bytes really are (magic numbers win over the declared type). */
  contentType: string;
  pageCount: number | null;
  ocrPages: number;
}

/** How a file is read: for a request that waits on it, or in the background (the ingest queue). */
export interface ExtractionOptions {
  /**
   * A capture request waits for this read. It never waits for another
   * caller's file: with no reader free now, the extractor throws
   * ExtractionDeferred and the file is queued. `signal` ends the read when
   * the request's budget runs out.
   */
  request?: { signal: AbortSignal };
}

/**
 * Turns file bytes into text; throws CaptureRejected for bad or unsupported
 * files, including files over the extraction limits (time, memory, size).
 */
export interface TextExtractor {
  extract(input: ExtractionInput, options?: ExtractionOptions): Promise<ExtractedText>;
  /**
   * Whether extracting these bytes is slow work (OCR, PDF, DOCX, or simply
   * large), decided by the bytes: such a file is queued, never read in the
   * request. Asked within a request: a file that cannot be sniffed at once
   * counts as slow.
   */
  isSlowWork(bytes: Uint8Array): Promise<boolean>;
}

/** Tenants and their API keys. Keys are stored only as hashes. */
export interface TenantStore {
  createTenant(name: string, at: string): Promise<TenantRecord>;
  findTenantByName(name: string): Promise<TenantRecord | null>;
  countTenants(): Promise<number>;
  addKey(key: { keyId: string; tenantId: string; hash: string; prefix: string; createdAt: string }): Promise<void>;
  /** The tenant id of an active key with this hash, or null. */
  tenantForKeyHash(hash: string): Promise<string | null>;
  listKeys(): Promise<ApiKeyRecord[]>;
  revokeKey(keyId: string, at: string): Promise<boolean>;
  /** Revokes every active key of the tenant except `keep`; returns how many. */
  revokeTenantKeys(tenantId: string, at: string, keep?: string): Promise<number>;
}

export interface Clock {
  /** UTC ISO 8601 with six fractional digits and no zone designator. */
  now(): string;
}

/** One retrieved passage handed to a chat model, numbered for citation as [number]. */
export interface GroundingPassage {
  /** 1-based; the model cites it as [number]. */
  number: number;
  title: string | null;
  /** The document line the passage's first line is. */
  lineStart: number;
  /** The passage's lines, in order (lineStart, lineStart + 1, ...). */
  lines: readonly string[];
  /** Opaque: passages with the same key come from the same document. */
  document?: string;
  /**
   * The passage shares no content word with the question but the gate
   * admitted it by meaning: an answerer that matches words should still
   * read it (the offline extractive answerer quotes its leading sentences).
   */
  byMeaning?: boolean;
  /** The passage supports an answer on its own (it cleared the relevance gate); the others were admitted beside it. */
  supports?: boolean;
}

/** An earlier exchange of the conversation a question belongs to. */
export interface ConversationTurn {
  question: string;
  reply: string;
}

export interface ChatModelRequest {
  question: string;
  /**
   * For a model that reads no history: the follow-up as asked, when
   * `question` also holds the earlier questions it goes on from (it has no
   * word of its own). What it asks for ("who is it with?": a person) is read
   * from it before the earlier ones ("how much will it cost?").
   */
  followUp?: string;
  /**
   * The question goes on about what the conversation's last turn was about
   * (its passages were found with that turn): a model that reads no history
   * keeps a short answer to the note it finds best.
   */
  goesOn?: boolean;
  passages: readonly GroundingPassage[];
  /** The caller wants several facts (a list, table or chart follows), not a short answer. */
  itemize: boolean;
  /** The conversation's earlier turns, oldest first (a follow-up is read in their light); absent or empty for a first question. */
  history?: readonly ConversationTurn[];
}

export interface ChatModelCallOptions {
  /** Receives the reply's text as it is written, piece by piece (streamed replies); the answer still returns whole. */
  onDelta?: (text: string) => void;
  signal?: AbortSignal;
}

export interface Citation {
  passage: number;
  /** The document lines relied on, when the model knows them (else the whole passage). */
  lines?: readonly number[];
  /** The exact text relied on, when the model quotes. */
  quote?: string;
}

export interface ChatModelAnswer {
  /** The reply, citing passages as [n]; null when the passages do not answer the question. */
  reply: string | null;
  /** Passages the reply rests on, in the order the reply cites them. */
  citations: readonly Citation[];
  usage: { promptTokens: number; completionTokens: number };
}

/**
 * Answers a question from the supplied passages only. Throws
 * BackendUnavailableError when the model is down or throttling.
 */
export interface ChatModel {
  readonly name: string;
  /**
   * A generative model that can judge whether the passages answer the
   * question (and says so: a null answer, core/chat/prompt.ts): it is given the best
   * candidates once clear noise is dropped. The offline extractive answerer
   * cannot judge: the core's support gate decides for it.
   */
  readonly judges: boolean;
  answer(request: ChatModelRequest, options?: ChatModelCallOptions): Promise<ChatModelAnswer>;
}

/** One stored exchange of a conversation. */
export interface ConversationTurnRecord extends ConversationTurn {
  /** The chat's run (`run_...`): orders the turns, and names one for removal. */
  runId: string;
  at: string;
}

/**
 * The recent turns of each conversation (POST /v1/chat `conversation_id`;
 * docs/api-notes.md, "Conversations"). A conversation lives in one library
 * and one of its generations: every call names both, so a conversation id
 * never reaches into another tenant's or end user's library, and one of an
 * erased library is gone. The core checks the generation again after an
 * append (core/chat/conversations.ts), as it does for index writes.
 */
export interface ConversationStore {
  /**
   * The conversation's newest `limit` turns written under `generation` of
   * the library, oldest first; empty when it has none there (never begun,
   * another library's, or erased).
   */
  recentTurns(
    ref: LibraryRef,
    conversationId: string,
    generation: string,
    limit: number,
  ): Promise<ConversationTurnRecord[]>;
  /**
   * Adds a turn under `generation` (a turn with the same runId is replaced),
   * then keeps only the conversation's newest `keep` turns.
   */
  append(
    ref: LibraryRef,
    conversationId: string,
    generation: string,
    turn: ConversationTurnRecord,
    keep: number,
  ): Promise<void>;
  /** Removes one turn (a chat that failed after storing it); missing is no error. */
  removeTurn(ref: LibraryRef, conversationId: string, runId: string): Promise<void>;
  /**
   * Removes every turn of every conversation of the library, except those of
   * generation `keep` (the live generation of a library created afresh while
   * an erasure ran). Returns how many turns went.
   */
  removeLibrary(ref: LibraryRef, options?: { keep?: string | null }): Promise<number>;
}

/** What one event adds to a tenant's spend on one day. */
export interface UsageDelta {
  tokensUsed: number;
  chatCalls: number;
  ocrPages: number;
  captures: number;
}

export interface UsageDay extends UsageDelta {
  /** YYYY-MM-DD (UTC). */
  date: string;
}

/** Spend per tenant per day (never per end user). Increments are atomic. */
export interface UsageLedger {
  add(tenantId: string, date: string, delta: UsageDelta): Promise<void>;
  /** Days with any recorded spend between from and to (YYYY-MM-DD, inclusive), oldest first. */
  days(tenantId: string, from: string, to: string): Promise<UsageDay[]>;
}

// ---------------------------------------------------------------------------
// The caller-owned bucket (API.md "Caller-owned bucket"; docs/bucket.md).
// Business rules (probe order, error → code, which store a capture uses,
// pending-delete bookkeeping) live in core/bucket/; these ports only store,
// seal and reach.
// ---------------------------------------------------------------------------

export type BucketProvider = 's3' | 'r2';
export type BucketHealthState = 'ok' | 'failing';

/** A tenant's registered bucket as stored. The secret only ever sealed (SecretCipher). */
export interface BucketRegistrationRecord {
  tenantId: string;
  provider: BucketProvider;
  bucket: string;
  region: string;
  /** Custom S3 endpoint (R2, MinIO, ...); null: AWS S3's own endpoint for the region. */
  endpoint: string | null;
  /** Normalized: empty, or ends with '/'. Every object the service writes lies under it. */
  prefix: string;
  auth: 'role' | 'keys';
  roleArn: string | null;
  accessKeyId: string | null;
  /** The secret access key sealed with the tenant id as context; null for a role. Never the plaintext. */
  sealedSecret: string | null;
  /**
   * Where the objects go: a fingerprint of (provider, endpoint, bucket) made
   * by the core. Key rotation keeps it; another bucket changes it. Documents
   * remember it (in their blob key) so a delete never goes to the wrong bucket.
   */
  location: string;
  verifiedAt: string;
  state: BucketHealthState;
  lastError: string | null;
  lastErrorAt: string | null;
}

export interface BucketHealth {
  state: BucketHealthState;
  lastError: string | null;
  lastErrorAt: string | null;
}

/** One registration per tenant, plus the tenant's external id (kept across registrations). */
export interface BucketRegistrationStore {
  get(tenantId: string): Promise<BucketRegistrationRecord | null>;
  /** Registers or replaces the tenant's registration as a whole. */
  put(record: BucketRegistrationRecord): Promise<void>;
  /** Removes it; false when there was none. */
  delete(tenantId: string): Promise<boolean>;
  /**
   * Records the health of the registration at `location`; does nothing when
   * the tenant's registration is gone or now points elsewhere (a replace won).
   */
  recordHealth(tenantId: string, location: string, health: BucketHealth): Promise<void>;
  /**
   * The tenant's external id: stores `candidate` when the tenant has none
   * yet (put-if-absent, so concurrent first calls agree) and returns the
   * stored one. Never removed by unregistering.
   */
  externalId(tenantId: string, candidate: string): Promise<string>;
}

/** An object in a caller's bucket the service owes a delete (the bucket refused or could not be reached). */
export interface PendingBucketDelete {
  tenantId: string;
  /** The document's blob key: names the bucket location and the object (core/bucket/placement.ts). */
  blobKey: string;
  since: string;
  attempts: number;
  lastError: string | null;
  /** Not retried before this time. */
  nextAttemptAt: string;
}

/** The durable backlog of deletes owed to callers' buckets: a table locally, a DynamoDB table on AWS. */
export interface PendingBucketDeletes {
  /** Adds (or keeps) these; idempotent per (tenantId, blobKey). */
  add(
    items: ReadonlyArray<Pick<PendingBucketDelete, 'tenantId' | 'blobKey' | 'since' | 'nextAttemptAt'>>,
  ): Promise<void>;
  /** Up to `limit` entries whose nextAttemptAt is at or before `now`, oldest first. */
  due(now: string, limit: number): Promise<PendingBucketDelete[]>;
  /** The delete happened (or is no longer owed). */
  remove(tenantId: string, blobKey: string): Promise<void>;
  /** Another failed attempt: counts it, keeps the reason, and sets the next time. */
  retryLater(tenantId: string, blobKey: string, lastError: string, nextAttemptAt: string): Promise<void>;
  /** Drops every entry of the tenant (its registration was removed). Returns how many. */
  removeTenant(tenantId: string): Promise<number>;
  /** How many the tenant still owes (GET /v1/bucket shows it). */
  count(tenantId: string): Promise<number>;
}

/**
 * Seals secrets at rest: AES-256-GCM under a local key, or KMS on AWS. The
 * tenant id is bound as context (GCM additional data / KMS encryption
 * context), so a value copied to another tenant's row does not open.
 */
export interface SecretCipher {
  seal(plaintext: string, context: { tenantId: string }): Promise<string>;
  /** Throws when the value was not sealed under this key and context. */
  open(sealed: string, context: { tenantId: string }): Promise<string>;
}

/** How to reach one tenant's bucket, secret opened. Lives only in memory; never logged. */
export interface BucketAccess {
  tenantId: string;
  provider: BucketProvider;
  bucket: string;
  region: string;
  endpoint: string | null;
  auth:
    | { kind: 'role'; roleArn: string; externalId: string }
    | { kind: 'keys'; accessKeyId: string; secretAccessKey: string };
}

/**
 * Reaches callers' buckets (S3, R2, any S3-compatible store). `open` returns
 * a blob store whose keys are full object keys in that bucket. Its calls
 * throw BucketError (core/errors.ts) classified by what happened: `denied`
 * (the bucket or STS answered and refused: 401/403, AccessDenied,
 * InvalidAccessKeyId, SignatureDoesNotMatch, NoSuchBucket, a wrong-region
 * redirect), `unreachable` (no answer: DNS, TCP, TLS, timeout, 5xx,
 * throttling), or `forbidden_endpoint` (the SSRF guard refused the address
 * at connect time); `during: 'assume_role'` when it came from getting role
 * credentials. The adapter caches clients/credentials per tenant and drops
 * them on an auth failure; `forget` drops them at once (unregister, replace).
 */
export interface BucketConnector {
  open(access: BucketAccess): BlobStore;
  forget(tenantId: string): void;
}

/**
 * The principal a customer's role trusts: the deployment's dedicated
 * bucket-access role on AWS; locally an operator-set ARN or the identity the
 * machine's AWS credentials resolve to. null: role registration is not
 * available here (keys still are).
 */
export interface BucketPrincipal {
  principalArn(): Promise<string | null>;
}

/** Everything the bucket feature needs, wired per stack; absent: every blob goes to the service's storage. */
export interface CallerBuckets {
  registrations: BucketRegistrationStore;
  pendingDeletes: PendingBucketDeletes;
  cipher: SecretCipher;
  connector: BucketConnector;
  principal: BucketPrincipal;
  /** Local stack only, operator's choice: endpoints on private/loopback addresses (and http to loopback) are allowed. */
  allowPrivateEndpoints?: boolean;
}

/** A passage as a reindex sees it: its id in the index, and its text. */
export interface ReindexPassage {
  id: number;
  text: string;
}

/**
 * Re-embedding every vector of a local data folder with another embedder
 * (`library reindex`), resumably: the new vectors are kept apart, durably,
 * batch by batch, and replace the old ones all at once when every passage
 * has one, so search never reads a mix of two models.
 */
export interface VectorReindex {
  /**
   * Starts a reindex to `target`, or resumes the unfinished one to it (one
   * to another embedder is dropped). `current`: the target already made
   * the vectors, nothing to do. Counts the passages with vectors, and those
   * with the target's already.
   */
  begin(target: {
    name: string;
    dimensions: number;
  }): Promise<{ current: boolean; resumed: boolean; total: number; done: number; from: string | null }>;
  /** Up to `limit` passages after id `after`, lowest first, whose vector from the target is missing or stale (their text changed). */
  pending(after: number, limit: number): Promise<ReindexPassage[]>;
  /** Keeps the target's vectors for these passages, in one transaction; a passage removed meanwhile gets none. */
  keep(vectors: ReadonlyArray<ReindexPassage & { vector: Float32Array }>): Promise<void>;
  /**
   * In one transaction: when no passage lacks the target's vector, those
   * replace the old ones and the folder records the target (true); else
   * nothing changes (false: passages came meanwhile).
   */
  finish(): Promise<boolean>;
}

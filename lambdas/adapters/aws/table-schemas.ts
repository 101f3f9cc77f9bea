/**
 * The DynamoDB tables' key schemas, in one place: the adapters read and write
 * them, the CDK constructs create them, the adapter tests create them in
 * dynalite. Pure data, no SDK.
 */
export interface IndexSchema {
  readonly name: string;
  readonly partitionKey?: string;
  readonly sortKey: string;
}

export interface TableSchema {
  readonly partitionKey: string;
  readonly sortKey: string;
  readonly localIndexes: readonly IndexSchema[];
  readonly globalIndexes: readonly Required<IndexSchema>[];
  /** The attribute DynamoDB's time to live reads (epoch seconds), on the items that expire. */
  readonly timeToLiveAttribute?: string;
}

/** Tenants and hashed API keys (see dynamo-tenant-store.ts). */
export const TENANTS_TABLE: TableSchema = { partitionKey: 'pk', sortKey: 'sk', localIndexes: [], globalIndexes: [] };

/** Libraries, documents and dedup claims (see dynamo-document-store.ts). */
export const DOCUMENTS_TABLE = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Documents of one library, newest first; strongly consistent. */
  localIndexes: [{ name: 'newest', sortKey: 'newestKey' }],
  /** Documents still `processing` (sparse: the attributes exist only while processing). */
  globalIndexes: [{ name: 'processing', partitionKey: 'processingPk', sortKey: 'processingSince' }],
  /** Library references (the SQS job bodies' pointers) expire on their own after the longest a job can wait. */
  timeToLiveAttribute: 'expiresAt',
} as const satisfies TableSchema;

/** Usage counters per tenant and day. */
export const USAGE_TABLE: TableSchema = { partitionKey: 'pk', sortKey: 'sk', localIndexes: [], globalIndexes: [] };

/** Callers' bucket registrations, their external ids and the deletes owed to their buckets (see dynamo-bucket-registrations.ts). */
export const BUCKETS_TABLE = {
  partitionKey: 'pk',
  sortKey: 'sk',
  localIndexes: [],
  /** Deletes owed, by when they are next due (sparse: only pending-delete items carry the attributes). */
  globalIndexes: [{ name: 'due', partitionKey: 'duePk', sortKey: 'dueKey' }],
} as const satisfies TableSchema;

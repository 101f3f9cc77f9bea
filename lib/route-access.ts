/**
 * What each function may touch. IAM is granted from this table only, so a
 * function holds exactly the access its use case needs. A route missing here
 * gets FULL_ACCESS and a synth warning (a new route keeps working, and the
 * warning asks for its own line).
 */
export interface Access {
  readonly documents?: 'read' | 'write';
  /** `lookup`: dynamodb:GetItem only (a key's hash to its tenant), for a function that checks a key without the authorizer. */
  readonly tenants?: 'read' | 'write' | 'lookup';
  readonly usage?: 'read' | 'write';
  readonly blobs?: { readonly read?: boolean; readonly put?: boolean; readonly delete?: boolean };
  readonly search?: 'read' | 'write';
  readonly embed?: boolean;
  readonly chat?: boolean;
  /** With `chat`: whether it may also stream the chat model's reply (ConverseStream); default yes. */
  readonly chatStreams?: boolean;
  readonly ingestQueue?: boolean;
  /** Textract's OCR, with PDFs staged for it under textract-staging/ in the blob bucket. */
  readonly textract?: boolean;
  /**
   * Callers' own buckets (API.md "Caller-owned bucket"): the buckets table
   * (registrations, external ids, deletes owed); `seal`/`open` encrypt or
   * decrypt a caller's secret key with the secrets key (tenant id as
   * context); `reach`: assume the dedicated role to reach buckets by role.
   */
  readonly callerBuckets?: { readonly table: 'read' | 'write'; readonly seal?: boolean; readonly open?: boolean; readonly reach?: boolean };
  /**
   * Names end users in its logs (a route that addresses an end user's
   * library): kms:GenerateMac on the end-user log key, to derive the HMAC key
   * those names are made with (lambdas/wiring/aws/end-user-log-key.ts).
   */
  readonly endUserLogKey?: boolean;
}

export const FULL_ACCESS: Access = {
  documents: 'write', usage: 'write', blobs: { read: true, put: true, delete: true }, search: 'write', embed: true, chat: true, ingestQueue: true,
  callerBuckets: { table: 'write', seal: true, open: true, reach: true },
};

/** Reads, writes or deletes caller blobs: decrypts the secret, reaches the bucket, records its health and the deletes it owes. */
const CALLER_BLOBS = { table: 'write', open: true, reach: true } as const;

const CAPTURE: Access = { documents: 'write', usage: 'write', blobs: { put: true, delete: true }, search: 'write', embed: true, ingestQueue: true, callerBuckets: CALLER_BLOBS, endUserLogKey: true };

export const ACCESS: Readonly<Record<string, Access>> = {
  // A key sent to health (no authorizer on the route) is checked by its hash: one GetItem, only when a key is sent.
  health: { tenants: 'lookup' },
  openapi: {},
  // The API reference page: static HTML and the renderer copied beside the bundle.
  docs: {},
  capture: CAPTURE,
  'capture-batch': CAPTURE,
  // Search and grep read the library's live generation (documents) before the index.
  search: { documents: 'read', search: 'read', embed: true, endUserLogKey: true },
  grep: { documents: 'read', search: 'read', endUserLogKey: true },
  'documents-list': { documents: 'read', endUserLogKey: true },
  'document-get': { documents: 'read', endUserLogKey: true },
  // The record, then every index entry of the document (title, source_ref, metadata).
  'document-update': { documents: 'write', search: 'write', endUserLogKey: true },
  'document-delete': { documents: 'write', blobs: { delete: true }, search: 'write', callerBuckets: CALLER_BLOBS, endUserLogKey: true },
  // The record and the library's live generation, then the text from the index, as grep reads it.
  'document-content': { documents: 'read', search: 'read', endUserLogKey: true },
  // A text push's text from the index; a file by a URL presigned with this function's credentials (so s3:GetObject on
  // the blobs), or with the caller's keys or role session for their bucket: the table (a role's external id is read
  // by a put-if-absent; a failed reach marks the registration's health), the secret opened, the role assumed.
  'document-file': { documents: 'read', search: 'read', blobs: { read: true }, callerBuckets: CALLER_BLOBS, endUserLogKey: true },
  'end-users-list': { documents: 'read' },
  'end-user-delete': { documents: 'write', blobs: { delete: true }, search: 'write', callerBuckets: CALLER_BLOBS, endUserLogKey: true },
  chat: { documents: 'write', usage: 'write', search: 'write', embed: true, chat: true, endUserLogKey: true },
  // The MCP tools: search, grep, ask (chat, answered whole: no streamed reply), remember (a text capture: no bytes stored,
  // its embedding queued when the request cannot finish it; no file is read, so no reader thread and no Textract),
  // list, read and forget (delete everywhere: the service's blobs and callers' buckets) documents.
  mcp: {
    documents: 'write', usage: 'write', blobs: { delete: true }, search: 'write', embed: true, chat: true, chatStreams: false, ingestQueue: true,
    callerBuckets: CALLER_BLOBS, endUserLogKey: true,
  },
  usage: { usage: 'read' },
  authorizer: { tenants: 'read' },
  // Extracts (reads the bytes, Textract), embeds every passage, charges, settles; enqueues nothing.
  ingest: { documents: 'write', usage: 'write', blobs: { read: true }, search: 'write', embed: true, textract: true, callerBuckets: CALLER_BLOBS },
  // Settles abandoned documents failed and removes their index entries (their bytes stay with the record); retries the deletes owed to callers' buckets.
  sweeper: { documents: 'write', search: 'write', callerBuckets: CALLER_BLOBS },
  // Embeds the calibration set with the deployed model at deploy time (a custom resource); touches no data.
  'embedder-scale': { embed: true },
  // The external id is stored on first request (put-if-absent); the principal is the dedicated role's ARN (an env var).
  'bucket-trust-policy': { callerBuckets: { table: 'write' } },
  // Probes the bucket (write, read back, delete) before registering; seals a secret key.
  'bucket-put': { callerBuckets: { table: 'write', seal: true, reach: true } },
  // The registration without secrets, its health and the deletes still owed.
  'bucket-get': { callerBuckets: { table: 'read' } },
  // Removes the registration and the deletes it owed.
  'bucket-delete': { callerBuckets: { table: 'write' } },
};

/**
 * What each function may touch. IAM is granted from these lines only, so a
 * function holds exactly the access its use case needs. A route's line is
 * the `access` of its contract (lambdas/endpoints/<route>/contract.ts); the
 * functions that are not routes have theirs here. A function without one gets
 * FULL_ACCESS and a synth warning (a new route keeps working, and the warning
 * asks for its own line).
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
  readonly callerBuckets?: {
    readonly table: 'read' | 'write';
    readonly seal?: boolean;
    readonly open?: boolean;
    readonly reach?: boolean;
  };
  /**
   * Names end users in its logs (a route that addresses an end user's
   * library): kms:GenerateMac on the end-user log key, to derive the HMAC key
   * those names are made with (lambdas/wiring/aws/end-user-log-key.ts).
   */
  readonly endUserLogKey?: boolean;
}

export const FULL_ACCESS: Access = {
  documents: 'write',
  usage: 'write',
  blobs: { read: true, put: true, delete: true },
  search: 'write',
  embed: true,
  chat: true,
  ingestQueue: true,
  callerBuckets: { table: 'write', seal: true, open: true, reach: true },
};

/** Reads, writes or deletes caller blobs: decrypts the secret, reaches the bucket, records its health and the deletes it owes. */
export const CALLER_BLOBS = { table: 'write', open: true, reach: true } as const;

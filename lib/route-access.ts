import { type Access, CALLER_BLOBS } from '../lambdas/endpoints/access.js';

/** The functions that are not routes: the authorizer and the workers (lib/functions.ts). */
export const NON_ROUTE_ACCESS = {
  authorizer: { tenants: 'read' },
  // Extracts (reads the bytes, Textract), embeds every passage, charges, settles; enqueues nothing.
  ingest: {
    documents: 'write',
    usage: 'write',
    blobs: { read: true },
    search: 'write',
    embed: true,
    textract: true,
    callerBuckets: CALLER_BLOBS,
  },
  // Settles abandoned documents failed and removes their index entries (their bytes stay with the record); retries the deletes owed to callers' buckets.
  sweeper: { documents: 'write', search: 'write', callerBuckets: CALLER_BLOBS },
  // Embeds the calibration set with the deployed model at deploy time (a custom resource); touches no data.
  'embedder-scale': { embed: true },
} as const satisfies Readonly<Record<string, Access>>;

/**
 * What each function may touch. IAM is granted from this table only, so a
 * function holds exactly the access its use case needs. A route missing here
 * gets FULL_ACCESS and a synth warning (a new route keeps working, and the
 * warning asks for its own line).
 */
export interface Access {
  readonly documents?: 'read' | 'write';
  readonly tenants?: 'read' | 'write';
  readonly usage?: 'read' | 'write';
  readonly blobs?: { readonly read?: boolean; readonly put?: boolean; readonly delete?: boolean };
  readonly search?: 'read' | 'write';
  readonly embed?: boolean;
  readonly chat?: boolean;
  readonly ingestQueue?: boolean;
  /** Textract's OCR, with PDFs staged for it under textract-staging/ in the blob bucket. */
  readonly textract?: boolean;
}

export const FULL_ACCESS: Access = {
  documents: 'write', usage: 'write', blobs: { read: true, put: true, delete: true }, search: 'write', embed: true, chat: true, ingestQueue: true,
};

const CAPTURE: Access = { documents: 'write', usage: 'write', blobs: { put: true, delete: true }, search: 'write', embed: true, ingestQueue: true };

export const ACCESS: Readonly<Record<string, Access>> = {
  health: {},
  openapi: {},
  // The API reference page: static HTML and the renderer copied beside the bundle.
  docs: {},
  capture: CAPTURE,
  'capture-batch': CAPTURE,
  // Search and grep read the library's live generation (documents) before the index.
  search: { documents: 'read', search: 'read', embed: true },
  grep: { documents: 'read', search: 'read' },
  'documents-list': { documents: 'read' },
  'document-get': { documents: 'read' },
  'document-delete': { documents: 'write', blobs: { delete: true }, search: 'write' },
  'end-users-list': { documents: 'read' },
  'end-user-delete': { documents: 'write', blobs: { delete: true }, search: 'write' },
  chat: { documents: 'write', usage: 'write', search: 'write', embed: true, chat: true },
  usage: { usage: 'read' },
  authorizer: { tenants: 'read' },
  // Extracts (reads the bytes, Textract), embeds every passage, charges, settles; enqueues nothing.
  ingest: { documents: 'write', usage: 'write', blobs: { read: true }, search: 'write', embed: true, textract: true },
  // Settles abandoned documents failed and removes their index entries; their bytes stay with the record.
  sweeper: { documents: 'write', search: 'write' },
};

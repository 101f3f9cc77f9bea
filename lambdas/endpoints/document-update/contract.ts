import * as z from 'zod/mini';
import { LIMITS } from '../../core/limits.js';
import { checkedByCore, IdPath, LibraryQuery, MetadataPatchSchema, meta, titleText } from '../../http/schemas.js';
import type { RouteContract } from '../route-contract.js';

const DocumentPatch = meta(
  z.strictObject({
    title: meta(z.optional(titleText(LIMITS.titleChars)), {
      description: 'The new title (not blank, no control characters).',
    }),
    source_ref: meta(z.optional(z.nullable(z.string().check(z.maxLength(LIMITS.sourceRefChars)))), {
      description: 'The new source_ref; null removes it.',
    }),
    metadata: checkedByCore(
      MetadataPatchSchema,
      'A merge patch (RFC 7396) on the metadata: a key with a value sets it, a key with null removes it, keys not named stay. The result must obey the metadata rules.',
    ),
  }),
  {
    id: 'DocumentPatch',
    description:
      'Any of title, source_ref and metadata. The content cannot be patched: capture the new version (with replace_source_ref).',
  },
);

export const contract = {
  name: 'document-update',
  method: 'PATCH',
  path: '/v1/documents/{id}',
  auth: true,
  summary: "Change a document's title, source_ref or metadata",
  request: { query: LibraryQuery, path: IdPath, body: DocumentPatch },
  // The record, then every index entry of the document (title, source_ref, metadata).
  access: { documents: 'write', search: 'write', endUserLogKey: true },
} as const satisfies RouteContract;

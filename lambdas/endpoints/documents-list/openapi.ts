import * as z from 'zod/mini';
import { type RouteDoc, success } from '../../http/openapi.js';
import { documentExample, page } from '../../http/openapi-examples.js';
import { Document, integer, meta, pageFields } from '../../http/schemas.js';

const DocumentsResponse = meta(z.object({ count: integer(), documents: z.array(Document), ...pageFields }), {
  id: 'DocumentsResponse',
});

export const doc: RouteDoc = {
  tag: 'Documents',
  description:
    'The documents of the library, newest first; `source_ref` keeps only those with exactly that source_ref.',
  responses: {
    '200': success('A page of documents.', DocumentsResponse, { count: 1, documents: [documentExample], ...page }),
  },
};

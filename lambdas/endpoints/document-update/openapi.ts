import { type RouteDoc, success } from '../../http/openapi.js';
import { documentExample } from '../../http/openapi-examples.js';
import { Document } from '../../http/schemas.js';

export const doc: RouteDoc = {
  tag: 'Documents',
  description:
    "Changes the document's `title`, `source_ref` or `metadata` (a merge patch, RFC 7396: a key with null removes it); the text, its passages and vectors stay. Search, grep, the document list and filters see the change as soon as this answers. 404 outside the caller's library; 422 naming the field or key when the result breaks the rules.",
  notFound: true,
  requestExamples: {
    tag: {
      summary: 'tag it and retitle it',
      value: { title: 'Apollo kickoff', metadata: { project: 'apollo', year: 2024, tags: ['meeting'] } },
    },
    untag: { summary: 'remove a key', value: { metadata: { tags: null } } },
  },
  responses: { '200': success('The updated document.', Document, documentExample) },
};

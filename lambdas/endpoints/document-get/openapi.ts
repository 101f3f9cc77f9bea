import { type RouteDoc, success } from '../../http/openapi.js';
import { documentExample } from '../../http/openapi-examples.js';
import { Document } from '../../http/schemas.js';

export const doc: RouteDoc = {
  tag: 'Documents',
  description: "One document of the caller's library (404 outside it), with where its indexing stands.",
  notFound: true,
  responses: { '200': success('The document.', Document, documentExample) },
};

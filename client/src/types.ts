/**
 * The API's shapes, taken from the types generated from the served OpenAPI
 * description (`api-types.ts`, by openapi-typescript): nothing here is
 * written by hand except the client's own option bags.
 */
import type { components, operations } from './api-types.js';
import type { Filter } from './filter.js';

type Schemas = components['schemas'];
type Query<Op extends keyof operations> = NonNullable<operations[Op]['parameters']['query']>;

export type CaptureItem = Schemas['CaptureItem'];
export type Receipt = Schemas['Receipt'];
export type BatchResponse = Schemas['CaptureBatchResponse'];
export type BatchReceipt = BatchResponse['results'][number];
export type SearchResponse = Schemas['SearchResponse'];
export type SearchResult = SearchResponse['results'][number];
export type GrepResponse = Schemas['GrepResponse'];
export type GrepResult = GrepResponse['results'][number];
export type DocumentsResponse = Schemas['DocumentsResponse'];
export type Document = Schemas['Document'];
export type DeletedDocument = Schemas['DeletedDocument'];
/** A page of a document's lines (`documents.content`). */
export type DocumentContent = Schemas['DocumentContent'];
export type EndUsersResponse = Schemas['EndUsersResponse'];
export type EndUser = EndUsersResponse['end_users'][number];
export type Erasure = Schemas['ErasureResponse'];
/** The chat body, with `filter` typed (the OpenAPI description gives it as any object). */
export type ChatRequest = Omit<Schemas['ChatRequest'], 'filter'> & { filter?: Filter };
export type ChatResponse = Schemas['ChatResponse'];
export type ChatStreamStart = Schemas['ChatStreamStart'];
export type ChatStreamDelta = Schemas['ChatStreamDelta'];
/** What `chatStream` yields: `start` at once, `delta` for each piece of the reply, `done` with the whole response. */
export type ChatStreamEvent =
  | ({ type: 'start' } & ChatStreamStart)
  | ({ type: 'delta' } & ChatStreamDelta)
  | { type: 'done'; response: ChatResponse };
export type UsageResponse = Schemas['UsageResponse'];
export type HealthResponse = Schemas['HealthResponse'];
export type ErrorBody = Schemas['Error'];
export type BucketRequest = Schemas['BucketRequest'];
export type BucketRegistration = Schemas['BucketRegistration'];
export type BucketStatus = Schemas['BucketStatus'];
export type TrustPolicy = Schemas['TrustPolicy'];
export type BucketUnregistered = Schemas['BucketUnregistered'];

/** The client's own: `filter` is a typed object, sent as JSON. */
export type SearchParams = Omit<Query<'search'>, 'cursor' | 'filter'> & { cursor?: string; filter?: Filter };
export type GrepParams = Omit<Query<'grep'>, 'case_sensitive' | 'cursor' | 'filter'> & {
  case_sensitive?: boolean;
  cursor?: string;
  filter?: Filter;
};
export type DocumentsParams = Omit<Query<'documents-list'>, 'filter'> & { filter?: Filter };
export type EndUsersParams = Query<'end-users-list'>;
export type UsageParams = Query<'usage'>;
export type DocumentContentParams = Query<'document-content'>;

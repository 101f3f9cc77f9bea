import * as z from 'zod/mini';
import type { ZodOpenApiResponseObject } from 'zod-openapi';
import { ownOr503, type RouteDoc, requestIdOnly } from '../../http/openapi.js';
import { integer, meta } from '../../http/schemas.js';

const HealthResponse = meta(
  z.object({
    status: meta(z.enum(['ok', 'degraded', 'unavailable']), {
      description:
        '`degraded` (200) while the embedder cannot work: captures are still stored and queued; `unavailable` (503) while a store the service needs is failing',
    }),
    version: z.string(),
    backend: z.enum(['local', 'aws']),
    embedder: z.object({
      name: z.string(),
      dimensions: integer(),
      state: meta(z.optional(z.enum(['ok', 'degraded'])), {
        description: 'whether the embedder is embedding (with a valid key only)',
      }),
      detail: meta(z.optional(z.nullable(z.string())), {
        description: "why it is not, in the embedder's own words (with a valid key only)",
      }),
    }),
    ingest: meta(z.optional(z.nullable(z.object({ backlog_documents: integer(), backlog_passages: integer() }))), {
      description:
        'with a valid key only: the background indexing queue, where this process can see it (local); null on AWS (the SQS queue has its own metrics)',
    }),
    dependencies: meta(
      z.optional(z.record(z.string(), z.object({ state: z.enum(['ok', 'failing']), detail: z.nullable(z.string()) }))),
      {
        description:
          'with a valid key only: each store the service needs, checked on this call (locally: database, blobs); empty on AWS, where a health call touches no store',
      },
    ),
  }),
  {
    id: 'HealthResponse',
    description:
      'Without a key (or with one that is not valid) only `status`, `version`, `backend` and `embedder.name`/`dimensions`; a valid key adds the reasons (`embedder.state`, `embedder.detail`, `ingest`, `dependencies`), which can name internal addresses and upstream errors.',
  },
);

export const doc: RouteDoc = {
  tag: 'Service',
  description:
    "`ok`: everything works. `degraded` (200): the embedder cannot embed; captures are still stored and queued, words and grep still answer. `unavailable` (503, `Retry-After`): a store the service needs is failing. No key is needed: without one (or with one that is not valid) the answer is only the status, version, backend and embedder name and dimensions. With a valid key it adds why (`embedder.state` and `detail`, the indexing backlog, each store's state), which can name internal addresses and upstream errors.",
  optionalKey: true,
  responses: {
    '200': {
      description: 'The service is `ok` or `degraded`.',
      headers: requestIdOnly as ZodOpenApiResponseObject['headers'],
      content: {
        'application/json': {
          schema: HealthResponse,
          examples: {
            anonymous: {
              summary: 'without a key',
              value: {
                status: 'degraded',
                version: '0.1.0',
                backend: 'local',
                embedder: { name: 'openai-compatible:nomic-embed-text', dimensions: 768 },
              },
            },
            keyed: {
              summary: 'with a valid key',
              value: {
                status: 'degraded',
                version: '0.1.0',
                backend: 'local',
                embedder: {
                  name: 'openai-compatible:nomic-embed-text',
                  dimensions: 768,
                  state: 'degraded',
                  detail: 'the embedding server answered HTTP 503',
                },
                ingest: { backlog_documents: 3, backlog_passages: 41 },
                dependencies: { database: { state: 'ok', detail: null }, blobs: { state: 'ok', detail: null } },
              },
            },
          },
        },
      },
    },
    '503': ownOr503(
      'The service is `unavailable`: a store it needs is failing (with a valid key, `dependencies` says which).',
      HealthResponse,
      {
        status: 'unavailable',
        version: '0.1.0',
        backend: 'local',
        embedder: { name: 'use-512', dimensions: 512 },
      },
    ),
  },
};

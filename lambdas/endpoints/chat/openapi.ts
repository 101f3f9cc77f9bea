import * as z from 'zod/mini';
import type { ZodOpenApiResponseObject } from 'zod-openapi';
import { formatEvent } from '../../http/event-stream.js';
import { json, type RouteDoc, requestIdOnly } from '../../http/openapi.js';
import { FILE_ID, METADATA } from '../../http/openapi-examples.js';
import { integer, MetadataSchema, meta } from '../../http/schemas.js';

const ChatResponse = meta(
  z.object({
    reply: z.string(),
    artifacts: z.array(
      z.object({
        id: meta(z.string(), { description: 'crt_ + ULID' }),
        type: z.enum(['table', 'chart', 'document', 'app']),
        title: z.string(),
        content_type: z.string(),
        content: z.string(),
      }),
    ),
    sources: z.array(
      z.object({
        kind: z.literal('file'),
        title: z.string(),
        snippet: meta(z.string(), { description: 'The cited lines, each prefixed with its line number: "12: ...".' }),
        file_id: z.string(),
        metadata: MetadataSchema,
        markers: meta(z.array(z.object({ marker: integer(), lines: z.array(integer()) })), {
          description:
            "The reply's `[n]` markers that cite this document, each with the lines it cites: a marker opens its source at those lines (docs/api-notes.md).",
        }),
      }),
    ),
    tokens_used: integer().check(z.minimum(0)),
    run_id: meta(z.string(), { description: 'run_ + ULID' }),
    conversation_id: meta(z.string(), {
      description:
        'cnv_ + ULID: the conversation this chat belongs to (the one sent, or a new one); send it with the next question to follow up.',
    }),
  }),
  { id: 'ChatResponse' },
);

/** A streamed chat's first event (`event: start`), sent as soon as the request is accepted. */
const ChatStreamStart = meta(
  z.object({
    run_id: meta(z.string(), { description: 'run_ + ULID, as in the final response' }),
    conversation_id: meta(z.string(), { description: 'cnv_ + ULID, as in the final response' }),
  }),
  { id: 'ChatStreamStart', description: 'The data of `event: start`.' },
);

/** A piece of the reply as it is written (`event: delta`). */
const ChatStreamDelta = meta(
  z.object({
    text: meta(z.string(), {
      description: 'The next piece of the reply; the pieces in order make the reply as written so far.',
    }),
  }),
  {
    id: 'ChatStreamDelta',
    description:
      "The data of `event: delta`. The `done` event's `reply` is the one to keep: it may differ from the pieces (see the operation).",
  },
);

const CHAT_EXAMPLE = {
  reply: 'You ship on Friday [1].',
  artifacts: [],
  sources: [
    {
      kind: 'file',
      title: 'Meeting notes',
      snippet: '3: We ship on Friday.',
      file_id: FILE_ID,
      metadata: METADATA,
      markers: [{ marker: 1, lines: [3] }],
    },
  ],
  tokens_used: 812,
  run_id: 'run_01JD7ZQ8W3M4X9N2B5C6V7K8P2',
  conversation_id: 'cnv_01JD7ZQ8W3M4X9N2B5C6V7K8P3',
} as const;

export const doc: RouteDoc = {
  tag: 'Chat',
  description: [
    'Answers from the selected library only, citing its sources; when nothing relevant is there, the reply says so and `sources` is empty. The question and the reply are kept and found by later searches (kind `chat`).',
    '',
    '**Conversations.** Every answer names its `conversation_id`; send it with the next question (same key, same `end_user_id`) and a follow-up is read in the light of the recent turns: "and when was that?" is searched together with what it points back to, and a language model is given the turns. A conversation id of another library or tenant, an erased one, or one never begun is 404 `not_found`.',
    '',
    "**Streamed replies.** With `Accept: text/event-stream` the answer is a stream of server-sent events: `start` at once (`ChatStreamStart`: `run_id`, `conversation_id`), `delta` for each piece of the reply as it is written (`ChatStreamDelta`: `text`), then `done` with the whole `ChatResponse`, the same body the JSON answer has. `done`'s `reply` is the one to keep: the pieces add up to it except when the reply was replaced after it was written. A failure before `start` is the usual status with the `Error` body; after it, the stream ends with an `error` event whose data is the `Error` body. Lines starting with `:` are keep-alive comments. JSON stays the default (no `Accept`, `application/json` or `*/*`).",
  ].join('\n'),
  notFound: true,
  requestExamples: {
    question: { summary: 'a question', value: { question: 'When do we ship?', end_user_id: 'user-42' } },
    followUp: {
      summary: 'a follow-up in a conversation',
      value: {
        question: 'And who signs it off?',
        end_user_id: 'user-42',
        conversation_id: 'cnv_01JD7ZQ8W3M4X9N2B5C6V7K8P3',
      },
    },
  },
  responses: {
    '200': {
      description:
        'The answer: JSON, or with `Accept: text/event-stream` the same answer streamed as server-sent events.',
      headers: requestIdOnly as ZodOpenApiResponseObject['headers'],
      content: {
        ...json(ChatResponse, CHAT_EXAMPLE),
        'text/event-stream': {
          schema: {
            type: 'string',
            description:
              'Server-sent events: `start` (ChatStreamStart), `delta` (ChatStreamDelta) for each piece of the reply, then `done` (ChatResponse) or `error` (Error).',
          },
          example: [
            formatEvent('start', { run_id: CHAT_EXAMPLE.run_id, conversation_id: CHAT_EXAMPLE.conversation_id }),
            formatEvent('delta', { text: 'You ship ' }),
            formatEvent('delta', { text: 'on Friday [1].' }),
            formatEvent('done', CHAT_EXAMPLE),
          ].join(''),
        },
      },
    },
  },
  // The data of the stream's events, which its text/event-stream answer names.
  schemas: { ChatStreamStart, ChatStreamDelta },
};

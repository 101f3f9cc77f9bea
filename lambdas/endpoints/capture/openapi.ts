import * as z from 'zod/mini';
import type { ZodOpenApiResponseObject } from 'zod-openapi';
import { ownOr503, type RouteDoc, requestIdOnly, success } from '../../http/openapi.js';
import { errorExample, receiptExamples } from '../../http/openapi-examples.js';
import { ErrorResponse, Receipt } from '../../http/schemas.js';

export const doc: RouteDoc = {
  tag: 'Capture',
  description:
    'Stores one text (`text`) or file (`content_base64` with `filename` and `content_type`) in the library. The body is always the receipt: 201 created, 200 deduped (the same payload is already in this library; `id` is the existing document), 422 rejected for good, 503 rejected and retryable (`backend_unavailable`, `Retry-After`). A rejected capture leaves nothing behind. A malformed item is a rejected receipt (`invalid_item`), never a 422 `invalid_request`.',
  requestExamples: {
    text: {
      summary: 'a text',
      value: { text: '# Meeting notes\n\nWe ship on Friday.', title: 'Meeting notes', source_ref: 'notes/meeting.md' },
    },
    file: {
      summary: 'a file',
      value: {
        content_base64: 'JVBERi0xLjcK...',
        filename: 'report.pdf',
        content_type: 'application/pdf',
        end_user_id: 'user-42',
      },
    },
  },
  responses: {
    '201': success('`created`: stored (or durably queued for extraction).', Receipt, receiptExamples.created),
    '200': success('`deduped`: the same payload is already in this library.', Receipt, receiptExamples.deduped),
    '422': {
      description:
        '`rejected`, not retryable: `reject_code` says why, `detail` how. A query parameter (the route takes none: `end_user_id` goes in the body) is refused before the body is read, with the Error body (`invalid_request`).',
      headers: requestIdOnly as ZodOpenApiResponseObject['headers'],
      content: {
        'application/json': {
          schema: z.union([Receipt, ErrorResponse]),
          examples: {
            rejected: { summary: 'a rejected capture', value: receiptExamples.rejected },
            parameter: {
              summary: 'a query parameter',
              value: errorExample('invalid_request', 'end_user_id: unknown parameter'),
            },
          },
        },
      },
    },
    '503': ownOr503(
      '`rejected` with `backend_unavailable`: nothing was stored; send it again after `Retry-After`.',
      Receipt,
      receiptExamples.unavailable,
    ),
  },
};

import { z } from 'zod';
import 'zod-openapi';
import { LIMITS } from '../core/limits.js';
import { ITEM_KINDS } from '../core/model.js';
import { isCalendarDate } from '../core/dates.js';
import { CHAT_LIMITS } from '../core/chat/limits.js';

/**
 * Request and response schemas: the one source for request validation (the
 * endpoints parse with them) and for GET /v1/openapi.json (generated from them).
 */

const noControlCharacters = /^[^\p{Cc}]*$/u;

export const EndUserId = z
  .string()
  .min(1)
  .max(LIMITS.endUserIdChars)
  .regex(noControlCharacters, 'must not contain control characters')
  .meta({ description: "Selects that end user's library; omitted: the tenant's shared library." });

const limitParam = (range: { min: number; max: number; default: number }) =>
  z.coerce.number().int().min(range.min).max(range.max).default(range.default);

const cursorParam = z.string().min(1).optional().meta({ description: 'The next_cursor of the previous page.' });

// ---- capture

export const CaptureItem = z
  .strictObject({
    text: z.string().optional().meta({ description: 'Text push: 1 byte to 2 MiB of UTF-8.' }),
    content_base64: z.string().optional().meta({ description: 'Bytes push: base64; decoded at most 4 MiB.' }),
    filename: z.string().min(1).max(LIMITS.filenameChars).optional(),
    content_type: z
      .string()
      .regex(/^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/, 'must be a media type such as text/plain')
      .optional(),
    title: z.string().max(LIMITS.titleChars).optional(),
    source_ref: z.string().max(LIMITS.sourceRefChars).optional(),
    end_user_id: EndUserId.optional(),
  })
  .meta({ id: 'CaptureItem' });

export const CaptureBatchRequest = z
  .strictObject({
    items: z.array(z.unknown()).min(1).max(LIMITS.batchItems).meta({
      description: 'Capture items (see CaptureItem); each is validated on its own receipt.',
    }),
    end_user_id: EndUserId.optional(),
  })
  .meta({ id: 'CaptureBatchRequest' });

export const Receipt = z
  .object({
    ok: z.boolean(),
    status: z.enum(['created', 'deduped', 'rejected']),
    dedup: z.boolean(),
    detail: z.string(),
    id: z.string().nullable(),
    file_id: z.string().nullable(),
    reject_code: z.string().nullable(),
    retryable: z.boolean().nullable(),
    source_ref: z.string().nullable(),
  })
  .meta({ id: 'Receipt' });

export const CaptureBatchResponse = z
  .object({
    total: z.number().int(),
    succeeded: z.number().int(),
    results: z.array(Receipt.extend({ index: z.number().int() })),
  })
  .meta({ id: 'CaptureBatchResponse' });

// ---- reading

const pageFields = { has_more: z.boolean(), next_cursor: z.string().nullable() };

export const SearchQuery = z.object({
  q: z.string().min(1).max(LIMITS.queryChars),
  limit: limitParam(LIMITS.search),
  cursor: cursorParam,
  end_user_id: EndUserId.optional(),
  kind: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const kinds = value.split(',').map((k) => k.trim()).filter(Boolean);
      const unknown = kinds.filter((k) => !(ITEM_KINDS as readonly string[]).includes(k));
      if (!kinds.length || unknown.length) {
        ctx.addIssue({ code: 'custom', message: `must be a comma list of ${ITEM_KINDS.join(', ')}` });
        return z.NEVER;
      }
      return kinds as Array<(typeof ITEM_KINDS)[number]>;
    })
    .meta({ description: `Comma list of kinds to keep: ${ITEM_KINDS.join(', ')}.` }),
});

export const SearchResponse = z
  .object({
    query: z.string(),
    count: z.number().int(),
    results: z.array(
      z.object({
        id: z.string(),
        kind: z.enum(ITEM_KINDS),
        snippet: z.string(),
        score: z.number().min(0).max(1),
        from_keyword: z.boolean(),
        content_date: z.string(),
        title: z.string().nullable(),
        source_ref: z.string().nullable(),
      }),
    ),
    ...pageFields,
  })
  .meta({ id: 'SearchResponse' });

export const GrepQuery = z.object({
  pattern: z.string().min(1).max(LIMITS.grepPatternChars),
  case_sensitive: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  file_id: z.string().min(1).optional(),
  limit: limitParam(LIMITS.grep),
  cursor: cursorParam,
  end_user_id: EndUserId.optional(),
});

export const GrepResponse = z
  .object({
    pattern: z.string(),
    count: z.number().int(),
    results: z.array(
      z.object({
        file_id: z.string(),
        title: z.string().nullable(),
        source_ref: z.string().nullable(),
        line: z.number().int().min(1),
        snippet: z.string(),
        content_date: z.string(),
      }),
    ),
    ...pageFields,
  })
  .meta({ id: 'GrepResponse' });

export const Document = z
  .object({
    id: z.string(),
    file_id: z.string(),
    title: z.string(),
    filename: z.string().nullable(),
    content_type: z.string(),
    source_ref: z.string().nullable(),
    size_bytes: z.number().int(),
    sha256: z.string(),
    kind: z.enum(['text', 'file', 'image']),
    status: z.enum(['ready', 'processing', 'failed']),
    created_at: z.string(),
    storage: z.enum(['service', 'bucket']),
    line_count: z.number().int(),
    page_count: z.number().int().nullable(),
  })
  .meta({ id: 'Document' });

export const DocumentsQuery = z.object({
  limit: limitParam(LIMITS.documents),
  cursor: cursorParam,
  end_user_id: EndUserId.optional(),
  source_ref: z.string().max(LIMITS.sourceRefChars).optional(),
});

export const DocumentsResponse = z
  .object({ count: z.number().int(), documents: z.array(Document), ...pageFields })
  .meta({ id: 'DocumentsResponse' });

export const LibraryQuery = z.object({ end_user_id: EndUserId.optional() });

export const IdPath = z.object({ id: z.string().min(1) });

export const DeletedDocument = z.object({ id: z.string(), deleted: z.literal(true) }).meta({ id: 'DeletedDocument' });

// ---- end users

export const EndUsersQuery = z.object({ limit: limitParam(LIMITS.endUsers), cursor: cursorParam });

export const EndUsersResponse = z
  .object({
    count: z.number().int(),
    end_users: z.array(
      z.object({ id: z.string(), created_at: z.string(), last_active_at: z.string(), document_count: z.number().int() }),
    ),
    ...pageFields,
  })
  .meta({ id: 'EndUsersResponse' });

export const ErasureResponse = z
  .object({
    id: z.string(),
    deleted: z.literal(true),
    documents_deleted: z.number().int(),
    blobs_deleted: z.number().int(),
    messages_deleted: z.number().int(),
  })
  .meta({ id: 'ErasureResponse' });

// ---- service

export const HealthResponse = z
  .object({
    status: z.literal('ok'),
    version: z.string(),
    backend: z.enum(['local', 'aws']),
    embedder: z.object({ name: z.string(), dimensions: z.number().int() }),
  })
  .meta({ id: 'HealthResponse' });

export const ErrorResponse = z
  .object({
    error: z.object({ code: z.string(), message: z.string(), request_id: z.string(), retry_after: z.number().int().optional() }),
  })
  .meta({ id: 'Error' });

// ---- chat

export const ChatRequest = z
  .strictObject({
    question: z
      .string()
      .min(1)
      .max(CHAT_LIMITS.questionChars)
      .refine((q) => q.trim().length > 0, 'must not be blank')
      .meta({ description: 'Answered only from the selected library.' }),
    end_user_id: EndUserId.optional(),
  })
  .meta({ id: 'ChatRequest' });

export const ChatResponse = z
  .object({
    reply: z.string(),
    artifacts: z.array(
      z.object({
        id: z.string().meta({ description: 'crt_ + ULID' }),
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
        snippet: z.string().meta({ description: 'The cited lines, each prefixed with its line number: "12: ...".' }),
        file_id: z.string(),
      }),
    ),
    tokens_used: z.number().int().min(0),
    run_id: z.string().meta({ description: 'run_ + ULID' }),
  })
  .meta({ id: 'ChatResponse' });

// ---- usage

const usageDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written YYYY-MM-DD')
  .refine(isCalendarDate, 'must be a real calendar date');

export const UsageQuery = z
  .object({
    from: usageDate.optional().meta({ description: 'First day (UTC), inclusive; default: the first day of the month.' }),
    to: usageDate.optional().meta({ description: 'Last day (UTC), inclusive; default: the last day of the month.' }),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'must not be after to', path: ['from'] });

const usageCounts = {
  tokens_used: z.number().int(),
  chat_calls: z.number().int(),
  ocr_pages: z.number().int(),
  captures: z.number().int(),
};

export const UsageResponse = z
  .object({
    tenant_id: z.string(),
    from: z.string(),
    to: z.string(),
    ...usageCounts,
    days: z.array(z.object({ date: z.string(), ...usageCounts })).meta({ description: 'Days with any spend, oldest first.' }),
  })
  .meta({ id: 'UsageResponse' });

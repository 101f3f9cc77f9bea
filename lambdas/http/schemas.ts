import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import type { RejectCode } from '../core/errors.js';
import { FILTER_LIMITS } from '../core/filter.js';
import { LIMITS } from '../core/limits.js';
import { METADATA_LIMITS } from '../core/metadata.js';
import { ERROR_STATUS, type ErrorCode } from './errors.js';

/**
 * The schema parts routes share: the one source for request validation (the
 * endpoints parse with them) and for GET /v1/openapi.json (generated from
 * them). A route's own request schemas are in its contract
 * (lambdas/endpoints/<route>/contract.ts), its own response schemas in its
 * openapi.ts; a part used by more than one route is here (end users, pages,
 * metadata and filters, capture items and receipts, documents, bucket
 * registrations, errors). Written with zod/mini, whose schemas tree-shake:
 * every Lambda carries these, and the classic API would add 450 KB to each.
 */

// English messages for the issues zod reports ("Too big: expected number to be <=50").
z.config(en());

/** Attaches OpenAPI metadata (an `id` makes the schema a named component). */
export const meta = <T extends z.ZodMiniType>(schema: T, data: z.core.GlobalMeta): T => {
  z.globalRegistry.add(schema, data);
  return schema;
};

const noControlCharacters = /^[^\p{Cc}]*$/u;
const CONTROL_CHARACTERS_MESSAGE = 'must not contain control characters';

/**
 * A title a caller gives (capture, PATCH): a line of text, no control characters (a tab, a newline or a NUL in a title
 * breaks the lists, logs and exports that show it); 1 to `max` characters, not blank.
 */
export const titleText = (max: number) =>
  nonBlankText(max).check(z.regex(noControlCharacters, CONTROL_CHARACTERS_MESSAGE));

export const text = (min: number, max: number) => z.string().check(z.minLength(min), z.maxLength(max));

/** Text of 1 to `max` characters that is not only white space: a blank query, question or title has no words to match or show. */
export const nonBlankText = (max: number) =>
  // A pattern (not a refinement): the OpenAPI document then says it too. \s is the white space trim() removes.
  text(1, max).check(z.regex(/\S/, 'must not be blank'));
export const integer = () => z.int();

export const EndUserId = meta(
  z
    .string()
    .check(
      z.minLength(1),
      z.maxLength(LIMITS.endUserIdChars),
      z.regex(noControlCharacters, CONTROL_CHARACTERS_MESSAGE),
    ),
  { description: "Selects that end user's library; omitted: the tenant's shared library." },
);

/**
 * An end user a write may create a library for: not "." or "..", which a
 * URL resolves away (as it does %2E), so no HTTP client could name them in
 * `DELETE /v1/end-users/{id}` to erase what was stored.
 */
export const NewEndUserId = meta(
  EndUserId.check(
    z.refine((id: string) => id !== '.' && id !== '..', 'must not be "." or ".." (a URL path cannot name them)'),
  ),
  { description: 'Selects that end user\'s library; omitted: the tenant\'s shared library. Not "." or "..".' },
);

export const limitParam = (range: { min: number; max: number; default: number }) =>
  z._default(z.coerce.number().check(z.int(), z.minimum(range.min), z.maximum(range.max)), range.default);

export const cursorParam = meta(z.optional(z.string().check(z.minLength(1))), {
  description: 'The next_cursor of the previous page.',
});

// ---- metadata and filters

const metadataValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);

export const MetadataSchema = meta(z.record(z.string(), metadataValue), {
  id: 'Metadata',
  description:
    `At most ${METADATA_LIMITS.keys} keys, each matching \`${METADATA_LIMITS.keyPattern.source}\`; a value is a string (at most ${METADATA_LIMITS.stringChars} characters), a finite number, a boolean, ` +
    `or an array of at most ${METADATA_LIMITS.arrayItems} strings (each at most ${METADATA_LIMITS.arrayItemChars} characters); at most ${METADATA_LIMITS.serializedBytes / 1024} KB as JSON. ` +
    'Filters read it (`metadata.<key>`). `{}` when none.',
});

const FILTER_DESCRIPTION =
  'Only what matches is searched, grepped, listed or used as evidence. A JSON object: `{"and": [...]}`, `{"or": [...]}`, `{"not": {...}}`, or fields ' +
  '(`metadata.<key>`, `source_ref`, `title`, `kind`, `content_type`, `created_at`, `content_date`) each with a value (equality) or operators ' +
  '(`eq`, `ne`, `in`, `nin`, `gt`, `gte`, `lt`, `lte`, `exists`, `prefix`). An array-valued key matches `eq`/`in` when any element does; ' +
  'a value of another type does not match; a missing key matches only `ne`, `nin` and `exists: false`; ranges take a number or an ISO 8601 date. ' +
  `At most ${FILTER_LIMITS.depth} levels of and/or/not and ${FILTER_LIMITS.conditions} conditions; a malformed filter is 422 naming the path inside it. ` +
  'Example: `{"metadata.project": "apollo", "metadata.year": {"gte": 2024}}`. See docs/api-notes.md, "Filters".';

export const FilterSchema = meta(z.record(z.string(), z.unknown()), { id: 'Filter', description: FILTER_DESCRIPTION });

/** PATCH's metadata: a merge patch (null removes a key). */
export const MetadataPatchSchema = meta(z.nullable(z.record(z.string(), z.nullable(metadataValue))), {
  id: 'MetadataPatch',
  description:
    'A merge patch (RFC 7396) on the metadata: a key with a value sets it, a key with null removes it, keys not named stay; null removes every key. The result must obey the metadata rules (see Metadata).',
});

/**
 * A JSON object passed on as parsed, for the core to check (core/metadata.ts,
 * core/filter.ts, whose messages name the key or path). A zod record would
 * rebuild it by assignment, and a key named __proto__ would be lost on the way.
 * The OpenAPI document shows `documentedAs` (http/openapi.ts).
 */
export const checkedByCore = (documentedAs: z.ZodMiniType, description: string) => {
  const schema = meta(z.optional(z.unknown()), { description });
  CHECKED_BY_CORE.set(schema, documentedAs);
  return schema;
};
export const CHECKED_BY_CORE = new Map<unknown, z.ZodMiniType>();

/** A filter as a GET parameter: the JSON object, URL-encoded (parsed by core/filter.ts, which names the path of a problem). */
export const filterParam = meta(z.optional(z.string().check(z.minLength(1), z.maxLength(FILTER_LIMITS.jsonChars))), {
  description: `URL-encoded JSON. ${FILTER_DESCRIPTION} A cursor works only with the same filter.`,
});

// ---- capture

/** A declared content_type is at most this long (RFC 6838 names are at most 127 + 1 + 127; room for a charset). */
export const CONTENT_TYPE_MAX_CHARS = 255;

// RFC 9110, section 8.3.1 (media-type) and 5.6 (token, quoted-string, OWS); ASCII only (no obs-text).
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED_STRING = '"(?:[\\t \\x21\\x23-\\x5B\\x5D-\\x7E]|\\\\[\\t \\x21-\\x7E])*"';
/**
 * type "/" subtype *( OWS ";" OWS [ name "=" ( token / quoted-string ) ] ).
 * Each repetition starts at its own ";", and white space after the last ";"
 * is allowed only at the end, so the match never backtracks far (and the
 * length is checked first).
 */
export const MEDIA_TYPE = new RegExp(
  `^${TOKEN}/${TOKEN}(?:[ \\t]*;(?:[ \\t]*${TOKEN}=(?:${TOKEN}|${QUOTED_STRING})|[ \\t]*$)?)*$`,
);

export const CaptureItem = meta(
  z.strictObject({
    text: meta(z.optional(z.string()), { description: 'Text push: 1 byte to 2 MiB of UTF-8.' }),
    content_base64: meta(z.optional(z.string()), { description: 'Bytes push: base64; decoded at most 4 MiB.' }),
    filename: z.optional(text(1, LIMITS.filenameChars)),
    content_type: meta(
      z.optional(
        z
          .string()
          .check(
            z.maxLength(CONTENT_TYPE_MAX_CHARS, { abort: true }),
            z.regex(
              MEDIA_TYPE,
              'must be a media type: type/subtype, then optional ; name=value parameters (RFC 9110), such as text/plain; charset=utf-8',
            ),
          ),
      ),
      {
        description: `Bytes push: the declared media type (RFC 9110: type/subtype tokens, optional \`; name=value\` parameters, each value a token or quoted string), at most ${CONTENT_TYPE_MAX_CHARS} characters.`,
      },
    ),
    title: z.optional(
      z.string().check(z.maxLength(LIMITS.titleChars), z.regex(noControlCharacters, CONTROL_CHARACTERS_MESSAGE)),
    ),
    source_ref: z.optional(z.string().check(z.maxLength(LIMITS.sourceRefChars))),
    metadata: meta(z.optional(MetadataSchema), {
      description:
        "The document's metadata, which filters read. A rejection names the key (`reject_code` `invalid_request`). A `deduped` capture keeps the stored metadata: change it with PATCH.",
    }),
    replace_source_ref: meta(z.optional(z.boolean()), {
      description:
        'Requires source_ref. This capture is the new version of the document at source_ref: once its text is indexed, the older documents with that source_ref in the same library are removed (a reader finds one version at every moment). See docs/api-notes.md.',
    }),
    end_user_id: z.optional(NewEndUserId),
  }),
  { id: 'CaptureItem' },
);

/**
 * Capture items as a batch takes them: any values, each validated on its own
 * receipt (a bad one is rejected alone); the OpenAPI document shows them as
 * CaptureItem (http/openapi.ts).
 */
export const CaptureItems = meta(z.array(z.unknown()).check(z.minLength(1), z.maxLength(LIMITS.batchItems)), {
  description: 'Capture items (see CaptureItem); each is validated on its own receipt.',
});

/** Every reject code a capture can end with (API.md, "reject_code values"), in the contract's order. */
export const REJECT_CODES = [
  'invalid_item',
  'invalid_request',
  'missing_content',
  'ambiguous_content',
  'invalid_base64',
  'too_large',
  'unsupported_type',
  'empty_content',
  'extraction_failed',
  'encrypted_document',
  'bucket_access_denied',
  'backend_unavailable',
] as const satisfies readonly RejectCode[];
// Fails to compile when core/errors.ts gains a reject code this list lacks.
const everyRejectCode: Record<RejectCode, true> = Object.fromEntries(REJECT_CODES.map((c) => [c, true])) as Record<
  (typeof REJECT_CODES)[number],
  true
>;
void everyRejectCode;

export const RejectCodeSchema = meta(z.enum(REJECT_CODES), {
  id: 'RejectCode',
  description:
    'Why a capture was rejected. Only `backend_unavailable` is retryable (HTTP 503, `Retry-After`); every other code is final (HTTP 422): ' +
    '`invalid_item` a field has the wrong type or breaks a rule (`detail` names it); `invalid_request` the `metadata` breaks the metadata rules (`detail` names the key); `missing_content` neither `text` nor `content_base64`; ' +
    '`ambiguous_content` both; `invalid_base64` `content_base64` does not decode; `too_large` over the size limits; ' +
    '`unsupported_type` no text can be extracted from this kind of file; `empty_content` the text, or what was extracted, is empty or whitespace; ' +
    '`extraction_failed` the file is corrupt or malformed for its type; `encrypted_document` the file is password-protected; ' +
    "`bucket_access_denied` the caller's registered bucket refused the write; `backend_unavailable` a dependency failed or throttled, nothing was stored.",
});

export const receiptShape = {
  ok: meta(z.boolean(), { description: 'true when `created` or `deduped`' }),
  status: z.enum(['created', 'deduped', 'rejected']),
  dedup: meta(z.boolean(), { description: 'true exactly when `deduped`' }),
  detail: meta(z.string(), { description: 'human-readable' }),
  id: meta(z.nullable(z.string()), {
    description: '`file_` + 26-character ULID; for `deduped`, the existing document; null when rejected',
  }),
  file_id: meta(z.nullable(z.string()), { description: 'same as `id`' }),
  reject_code: meta(z.nullable(RejectCodeSchema), { description: 'set only when rejected' }),
  retryable: meta(z.nullable(z.boolean()), {
    description: 'set only when rejected: true for `backend_unavailable` (HTTP 503)',
  }),
  source_ref: meta(z.nullable(z.string()), {
    description: "the stored source_ref (for `deduped`, the existing document's)",
  }),
};

export const Receipt = meta(z.object(receiptShape), {
  id: 'Receipt',
  description:
    'The capture receipt: the body of every capture answer (201 created, 200 deduped, 422 rejected for good, 503 rejected and retryable).',
});

// ---- pages

export const pageFields = { has_more: z.boolean(), next_cursor: z.nullable(z.string()) };

// ---- documents

export const Document = meta(
  z.object({
    id: z.string(),
    file_id: z.string(),
    title: z.string(),
    filename: z.nullable(z.string()),
    content_type: z.string(),
    source_ref: z.nullable(z.string()),
    size_bytes: integer(),
    sha256: z.string(),
    kind: z.enum(['text', 'file', 'image']),
    status: meta(z.enum(['ready', 'processing', 'failed']), {
      description:
        '`processing` while its text is extracted or its passages embedded; `ready` when every passage is findable by meaning; `failed` (see failure_reason) when it cannot be indexed',
    }),
    failure_reason: meta(z.nullable(z.string()), {
      description: 'why a `failed` document failed, as `reject_code: detail`; null otherwise',
    }),
    findable_by_words: meta(z.boolean(), { description: 'its text is in the index: search by words and grep find it' }),
    findable_by_meaning: meta(z.boolean(), {
      description: 'every passage has its vector: search by meaning finds all of it',
    }),
    passages: meta(z.nullable(integer()), { description: 'passages of its text; null until the text is known' }),
    passages_embedded: meta(integer(), { description: 'passages findable by meaning so far' }),
    created_at: z.string(),
    storage: z.enum(['service', 'bucket']),
    line_count: integer(),
    page_count: z.nullable(integer()),
    metadata: MetadataSchema,
  }),
  { id: 'Document' },
);

export const LibraryQuery = z.object({ end_user_id: z.optional(EndUserId) });

/**
 * A path parameter as API Gateway REST passes it (and the local server, which imitates it): still
 * URL-encoded. Decoded once here, for every route's path (docs/api-notes.md, "On AWS").
 */
export const pathSegment = z.pipe(
  z.string().check(z.minLength(1)),
  z.transform((raw: string, ctx) => {
    try {
      return decodeURIComponent(raw);
    } catch {
      ctx.issues.push({ code: 'custom', message: 'must be URL-encoded', input: raw });
      return z.NEVER;
    }
  }),
);

export const IdPath = z.object({ id: pathSegment });

// ---- caller-owned bucket

export const bucketFields = {
  provider: z.enum(['s3', 'r2']),
  bucket: z.string(),
  region: z.string(),
  endpoint: z.nullable(z.string()),
  prefix: meta(z.string(), { description: 'normalized: empty, or ends with `/`' }),
  auth: z.enum(['role', 'keys']),
  verified_at: meta(z.string(), { description: 'when the probe last proved access' }),
};

// ---- errors

export const ErrorCodeSchema = meta(z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]), {
  id: 'ErrorCode',
  description: `The error's kind; each goes with one HTTP status: ${Object.entries(ERROR_STATUS)
    .map(([code, status]) => `\`${code}\` ${status}`)
    .join(', ')}.`,
});

export const ErrorResponse = meta(
  z.object({
    error: z.object({
      code: ErrorCodeSchema,
      message: meta(z.string(), { description: 'what went wrong; for `invalid_request`, it names the field' }),
      request_id: meta(z.string(), { description: 'the same as the `x-request-id` header' }),
      retry_after: meta(z.optional(integer()), {
        description:
          'seconds to wait before retrying (`rate_limited`, and `unavailable` when known); the same as `Retry-After`',
      }),
    }),
  }),
  { id: 'Error', description: 'The body of every error answer.' },
);

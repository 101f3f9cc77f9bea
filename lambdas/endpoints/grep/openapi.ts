import * as z from 'zod/mini';
import { GREP_BUDGETS } from '../../core/grep.js';
import { type RouteDoc, success } from '../../http/openapi.js';
import { DATE, FILE_ID, METADATA, page } from '../../http/openapi-examples.js';
import { integer, MetadataSchema, meta, pageFields } from '../../http/schemas.js';

const GrepResponse = meta(
  z.object({
    pattern: z.string(),
    count: integer(),
    results: z.array(
      z.object({
        file_id: z.string(),
        title: z.nullable(z.string()),
        source_ref: z.nullable(z.string()),
        line: integer().check(z.minimum(1)),
        snippet: z.string(),
        content_date: z.string(),
        metadata: MetadataSchema,
      }),
    ),
    ...pageFields,
  }),
  { id: 'GrepResponse' },
);

export const doc: RouteDoc = {
  tag: 'Search',
  description:
    'Every line holding the pattern, matched literally (no regular expressions); newest document first, then line. ' +
    `A page reads at most ${GREP_BUDGETS.pageBytes / 2 ** 20} MiB of document text and scans at most ${GREP_BUDGETS.pageMs / 1000} s; when either runs out it answers the lines found so far ` +
    'with `has_more` true and a `next_cursor`, so a page may hold fewer lines than `limit`, even none: follow `next_cursor` until `has_more` is false ' +
    '(walking the pages yields every matching line once).',
  responses: {
    '200': success('A page of matching lines.', GrepResponse, {
      pattern: 'Friday',
      count: 1,
      results: [
        {
          file_id: FILE_ID,
          title: 'Meeting notes',
          source_ref: 'notes/meeting.md',
          line: 3,
          snippet: '3: We ship on Friday.',
          content_date: DATE,
          metadata: METADATA,
        },
      ],
      ...page,
    }),
  },
};

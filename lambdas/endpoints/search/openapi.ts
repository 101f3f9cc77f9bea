import * as z from 'zod/mini';
import { ITEM_KINDS } from '../../core/model.js';
import { MAX_QUERY_TERMS } from '../../core/query-terms.js';
import { type RouteDoc, success } from '../../http/openapi.js';
import { DATE, FILE_ID, METADATA, page } from '../../http/openapi-examples.js';
import { integer, MetadataSchema, meta, pageFields } from '../../http/schemas.js';

const SearchResponse = meta(
  z.object({
    query: z.string(),
    count: integer(),
    results: z.array(
      z.object({
        id: z.string(),
        kind: z.enum(ITEM_KINDS),
        snippet: z.string(),
        score: meta(z.number().check(z.minimum(0), z.maximum(1)), {
          description:
            'Absolute relevance in [0, 1], comparable between queries on one library and with every embedder (docs/api-notes.md, "Scores").',
        }),
        from_keyword: z.boolean(),
        content_date: z.string(),
        title: z.nullable(z.string()),
        source_ref: z.nullable(z.string()),
        metadata: meta(MetadataSchema, {
          description: "the document's metadata; `{}` for `chat` and `creation` results",
        }),
        line_start: meta(integer(), {
          description:
            "first line (1-based) of the item's text that the snippet's passage covers: a document opens there (`GET /v1/documents/{id}/content?from_line=`)",
        }),
        line_end: meta(integer(), { description: 'last line the passage covers' }),
      }),
    ),
    ...pageFields,
  }),
  { id: 'SearchResponse' },
);

export const doc: RouteDoc = {
  tag: 'Search',
  description: `Ranks by meaning and by the query's words together (hybrid); the words matched are at most ${MAX_QUERY_TERMS} of the query's (the longest, when it has more). \`from_keyword\` says whether a result was (also) found by its own words (a short memory found only through the words of the memories captured around it has false). \`score\` is absolute, in [0, 1] and comparable between queries: results keep the ranking's order, and the first scores how relevant the query's best result is at all (by the share of the query's words it holds, and by its meaning on one scale for every embedder), so a query that matches nothing in words or meaning scores low throughout; \`min_score\` keeps only results at or above a threshold.`,
  responses: {
    '200': success('A page of results, best first.', SearchResponse, {
      query: 'when do we ship',
      count: 1,
      results: [
        {
          id: FILE_ID,
          kind: 'file_excerpt',
          snippet: 'We ship on Friday.',
          score: 0.82,
          from_keyword: true,
          content_date: DATE,
          title: 'Meeting notes',
          source_ref: 'notes/meeting.md',
          metadata: METADATA,
          line_start: 12,
          line_end: 14,
        },
      ],
      ...page,
    }),
  },
};

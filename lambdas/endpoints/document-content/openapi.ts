import * as z from 'zod/mini';
import { CONTENT_PAGE_BYTES } from '../../core/reading.js';
import { type RouteDoc, success } from '../../http/openapi.js';
import { FILE_ID } from '../../http/openapi-examples.js';
import { integer, meta } from '../../http/schemas.js';

const DocumentContent = meta(
  z.object({
    id: z.string(),
    line_count: meta(integer(), {
      description:
        "lines of the document's whole text (a final newline ends the last line), as the document's `line_count`",
    }),
    from_line: meta(integer().check(z.minimum(1)), { description: 'the line `lines[0]` is' }),
    lines: meta(z.array(z.string()), {
      description: '`lines[k]` is line `from_line + k`, without its line break (\\n, \\r\\n or \\r)',
    }),
    next_from_line: meta(z.nullable(integer().check(z.minimum(1))), {
      description: 'the `from_line` of the next page; null when this page reaches the end',
    }),
  }),
  { id: 'DocumentContent' },
);

export const doc: RouteDoc = {
  tag: 'Documents',
  description: [
    "The document's extracted text, a page of lines: the very lines grep reports and chat cites, numbered alike (a grep hit's `line` N is `lines[N - from_line]`), read from the index in the library's live generation. Lines are split on \\n, \\r\\n and \\r, without their breaks; a final line break ends the last line (`line_count` counts as the document's does).",
    '',
    `A page holds at most \`lines\` lines and stops early before a line that would take it past ${CONTENT_PAGE_BYTES / 2 ** 20} MiB of JSON (it always holds one line, however long): follow \`next_from_line\` until it is null. A \`from_line\` past the last line answers no lines and a null \`next_from_line\`.`,
    '',
    "409 `not_ready` while the text is not extracted yet (a queued file, `status` `processing` with `passages` null; a document still embedding reads already), and for a `failed` document, which has no text. 404 outside the caller's library.",
  ].join('\n'),
  notFound: true,
  notReady: true,
  responses: {
    '200': success('A page of lines.', DocumentContent, {
      id: FILE_ID,
      line_count: 42,
      from_line: 1,
      lines: ['# Meeting notes', '', 'We ship on Friday.'],
      next_from_line: 4,
    }),
  },
};

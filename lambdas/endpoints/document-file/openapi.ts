import type { ZodOpenApiResponseObject } from 'zod-openapi';
import { FILE_LINK_MEDIA_TYPE, FILE_LINK_SECONDS } from '../../core/reading.js';
import { type RouteDoc, requestIdOnly } from '../../http/openapi.js';

export const doc: RouteDoc = {
  tag: 'Documents',
  description: [
    "The file as captured: its bytes with the `Content-Type` it is stored with (for a file, the type its bytes turned out to be) and `Content-Disposition: attachment` naming it (RFC 6266: `filename`, and `filename*` in UTF-8 when the name is not plain ASCII). A text push has no file: its text comes as `text/plain; charset=utf-8`, named after its title (`<title>.txt`, see docs/api-notes.md). A file kept in the tenant's own bucket is read there; one in a bucket the tenant no longer has registered is 404 (it is the customer's alone).",
    '',
    `On AWS a file answers \`302\` with a \`Location\` presigned for ${FILE_LINK_SECONDS} s (the service's storage, or the tenant's bucket with its own credentials) that answers the same headers: follow it without the \`Authorization\` header (fetch and curl -L drop it on another origin). The local stack answers 200 with the bytes. A text push always answers 200.`,
    '',
    `A browser page, which can neither read a redirect's \`Location\` nor fetch another origin under its Content-Security-Policy, sends \`Accept: ${FILE_LINK_MEDIA_TYPE}\`: where the answer would be that redirect, it is 200 with \`{url, expires_in_seconds, filename, content_type}\` in that media type instead, and the page opens the URL. Where the answer is the bytes, the bytes come as usual.`,
  ].join('\n'),
  notFound: true,
  notReady: true,
  responses: {
    '200': {
      description:
        'The file, in its own media type (`Content-Type`: the stored one; `text/plain; charset=utf-8` for a text push). A text push whose text is not readable yet (or that failed) is 409 `not_ready`.',
      headers: {
        ...requestIdOnly,
        'Content-Disposition': {
          description: 'Always an attachment, naming the file (RFC 6266, RFC 8187).',
          required: true,
          schema: {
            type: 'string',
            examples: [`attachment; filename="r_sum_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`],
          },
        },
      } as ZodOpenApiResponseObject['headers'],
      content: {
        [FILE_LINK_MEDIA_TYPE]: {
          schema: {
            type: 'object',
            required: ['url', 'expires_in_seconds', 'filename', 'content_type'],
            properties: {
              url: { type: 'string', format: 'uri', description: 'The presigned URL (no key needed).' },
              expires_in_seconds: { type: 'integer' },
              filename: { type: 'string' },
              content_type: { type: 'string' },
            },
          },
        },
        '*/*': {
          schema: {
            type: 'string',
            contentMediaType: 'application/octet-stream',
            description: 'The bytes of the file, in its own media type (see Content-Type).',
          },
        },
      } as ZodOpenApiResponseObject['content'],
    },
    '302': {
      description: `AWS, a file (not a text push): a URL that serves it with the same Content-Type and Content-Disposition for ${FILE_LINK_SECONDS} s. Follow it without the key.`,
      headers: {
        ...requestIdOnly,
        Location: { description: 'The presigned URL.', required: true, schema: { type: 'string', format: 'uri' } },
      } as ZodOpenApiResponseObject['headers'],
    },
  },
};

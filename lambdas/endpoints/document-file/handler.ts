import { FILE_LINK_MEDIA_TYPE, FILE_LINK_SECONDS } from '../../core/reading.js';
import { createEndpoint, type EndpointResult, headerValue } from '../../http/endpoint.js';
import { libraryOf } from '../../http/library.js';
import type { Services } from '../../wiring/services.js';
import { contract } from './contract.js';

/**
 * GET /v1/documents/{id}/file: the file as captured, as an attachment named
 * for it (docs/api-notes.md, "Reading a document back"). Its bytes go in the
 * answer (base64 with isBase64Encoded; the local gateway sends them raw), a
 * text push's text as text; or, where the stack makes links (AWS), a 302 to
 * a short-lived URL that answers with the same Content-Type and
 * Content-Disposition. Never cached: it is someone's document.
 */
export const createHandler = (deps: Pick<Services, 'reading'>) =>
  createEndpoint({
    auth: contract.auth,
    ...contract.request,
    async run({ tenantId, query, path, event }): Promise<EndpointResult> {
      const file = await deps.reading.file(libraryOf(tenantId, query.end_user_id), path.id);
      const headers = { 'cache-control': 'private, no-store', 'content-disposition': file.disposition };
      if (file.link !== undefined) {
        // A browser page cannot follow a redirect to another origin under its own CSP, nor read where it points:
        // asked for it, the link comes as JSON, for the page to open (docs/api-notes.md, "Reading a document back").
        if (headerValue(event, 'accept')?.toLowerCase().includes(FILE_LINK_MEDIA_TYPE)) {
          return {
            status: 200,
            headers: { 'cache-control': 'private, no-store', 'content-type': FILE_LINK_MEDIA_TYPE },
            content: JSON.stringify({
              url: file.link,
              expires_in_seconds: FILE_LINK_SECONDS,
              filename: file.filename,
              content_type: file.contentType,
            }),
          };
        }
        return { status: 302, headers: { ...headers, location: file.link }, content: '' };
      }
      return {
        status: 200,
        headers: {
          ...headers,
          'content-type': file.contentType,
          // A captured HTML page or SVG is data here, never a page of the API's origin: not sniffed, no script, no subresource.
          'x-content-type-options': 'nosniff',
          'content-security-policy': "default-src 'none'; sandbox",
        },
        content: file.body ?? '',
      };
    },
  });

import { createEndpoint } from '../../http/endpoint.js';
import { libraryOf } from '../../http/library.js';
import type { Services } from '../../wiring/services.js';
import { contract } from './contract.js';

/** GET /v1/documents/{id}/content: a page of the document's lines, numbered as grep and chat cite them. */
export const createHandler = (deps: Pick<Services, 'reading'>) =>
  createEndpoint({
    auth: contract.auth,
    ...contract.request,
    async run({ tenantId, query, path }) {
      const page = await deps.reading.content(libraryOf(tenantId, query.end_user_id), path.id, {
        fromLine: query.from_line,
        lines: query.lines,
      });
      return { status: 200, body: page };
    },
  });

import { createEndpoint } from '../../http/endpoint.js';
import { filterOfParam } from '../../http/filter-param.js';
import { libraryOf } from '../../http/library.js';
import { pageBody } from '../../http/page.js';
import type { Services } from '../../wiring/services.js';
import { contract } from './contract.js';

export const createHandler = (deps: Pick<Services, 'documents'>) =>
  createEndpoint({
    auth: contract.auth,
    ...contract.request,
    async run({ tenantId, query }) {
      const page = await deps.documents.list(libraryOf(tenantId, query.end_user_id), {
        limit: query.limit,
        cursor: query.cursor,
        sourceRef: query.source_ref,
        filter: query.filter === undefined ? undefined : filterOfParam(query.filter),
      });
      return { status: 200, body: pageBody('documents', page) };
    },
  });

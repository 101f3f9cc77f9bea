import { createEndpoint } from '../../http/endpoint.js';
import { filterOfParam } from '../../http/filter-param.js';
import { libraryOf } from '../../http/library.js';
import { pageBody } from '../../http/page.js';
import type { Services } from '../../wiring/services.js';
import { contract } from './contract.js';

export const createHandler = (deps: Pick<Services, 'search'>) =>
  createEndpoint({
    auth: contract.auth,
    ...contract.request,
    async run({ tenantId, query }) {
      const page = await deps.search.search(libraryOf(tenantId, query.end_user_id), {
        q: query.q,
        limit: query.limit,
        cursor: query.cursor,
        kinds: query.kind,
        minScore: query.min_score,
        filter: query.filter === undefined ? undefined : filterOfParam(query.filter),
      });
      return { status: 200, body: pageBody('results', page, { query: query.q }) };
    },
  });

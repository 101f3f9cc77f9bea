import { createEndpoint } from '../../http/endpoint.js';
import { filterOfParam } from '../../http/filter-param.js';
import { libraryOf } from '../../http/library.js';
import { pageBody } from '../../http/page.js';
import type { Services } from '../../wiring/services.js';
import { contract } from './contract.js';

export const createHandler = (deps: Pick<Services, 'grep'>) =>
  createEndpoint({
    auth: contract.auth,
    ...contract.request,
    async run({ tenantId, query, deadline }) {
      // The page ends by the request's deadline at the latest (core/grep.ts, GrepBudgets), with has_more and a cursor.
      const page = await deps.grep.grep(libraryOf(tenantId, query.end_user_id), {
        pattern: query.pattern,
        caseSensitive: query.case_sensitive,
        fileId: query.file_id,
        limit: query.limit,
        cursor: query.cursor,
        deadline,
        filter: query.filter === undefined ? undefined : filterOfParam(query.filter),
      });
      return { status: 200, body: pageBody('results', page, { pattern: query.pattern }) };
    },
  });

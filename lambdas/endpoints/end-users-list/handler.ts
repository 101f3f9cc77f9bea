import { createEndpoint } from '../../http/endpoint.js';
import { pageBody } from '../../http/page.js';
import type { Services } from '../../wiring/services.js';
import { contract } from './contract.js';

export const createHandler = (deps: Pick<Services, 'endUsers'>) =>
  createEndpoint({
    auth: contract.auth,
    ...contract.request,
    async run({ tenantId, query }) {
      const page = await deps.endUsers.list(tenantId, { limit: query.limit, cursor: query.cursor });
      return { status: 200, body: pageBody('end_users', page) };
    },
  });

import type { Services } from '../../wiring/services.js';
import { createEndpoint } from '../../http/endpoint.js';
import { UsageQuery } from '../../http/schemas.js';

export const createHandler = (deps: Pick<Services, 'usage'>) =>
  createEndpoint({
    auth: true,
    query: UsageQuery,
    async run({ tenantId, query }) {
      return { status: 200, body: await deps.usage.report(tenantId, { from: query.from, to: query.to }) };
    },
  });

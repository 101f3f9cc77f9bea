import { createEndpoint } from '../../http/endpoint.js';
import type { Services } from '../../wiring/services.js';
import { contract } from './contract.js';

export const createHandler = (deps: Pick<Services, 'usage'>) =>
  createEndpoint({
    auth: contract.auth,
    ...contract.request,
    async run({ tenantId, query }) {
      return { status: 200, body: await deps.usage.report(tenantId, { from: query.from, to: query.to }) };
    },
  });

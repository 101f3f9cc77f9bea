import { createEndpoint } from '../../http/endpoint.js';
import type { Services } from '../../wiring/services.js';
import { contract } from './contract.js';

export const createHandler = (deps: Pick<Services, 'endUsers'>) =>
  createEndpoint({
    auth: contract.auth,
    ...contract.request,
    async run({ tenantId, path }) {
      return { status: 200, body: await deps.endUsers.erase(tenantId, path.id) };
    },
  });

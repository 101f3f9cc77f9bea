import type { Services } from '../../wiring/services.js';
import { createEndpoint } from '../../http/endpoint.js';
import { EndUserPath } from '../../http/schemas.js';

export const createHandler = (deps: Pick<Services, 'endUsers'>) =>
  createEndpoint({
    auth: true,
    path: EndUserPath,
    async run({ tenantId, path }) {
      return { status: 200, body: await deps.endUsers.erase(tenantId, path.id) };
    },
  });

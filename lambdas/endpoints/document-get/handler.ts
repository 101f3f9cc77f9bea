import { createEndpoint } from '../../http/endpoint.js';
import { libraryOf } from '../../http/library.js';
import type { Services } from '../../wiring/services.js';
import { contract } from './contract.js';

export const createHandler = (deps: Pick<Services, 'documents'>) =>
  createEndpoint({
    auth: contract.auth,
    ...contract.request,
    async run({ tenantId, query, path }) {
      return { status: 200, body: await deps.documents.get(libraryOf(tenantId, query.end_user_id), path.id) };
    },
  });

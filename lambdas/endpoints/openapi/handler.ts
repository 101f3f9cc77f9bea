import { createEndpoint } from '../../http/endpoint.js';
import { buildOpenApiDocument } from '../../http/openapi.js';

export const createHandler = (deps: { version: string }) => {
  let document: unknown;
  return createEndpoint({
    auth: false,
    async run() {
      document ??= buildOpenApiDocument(deps.version);
      return { status: 200, body: document };
    },
  });
};

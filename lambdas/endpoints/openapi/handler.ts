import { createEndpoint } from '../../http/endpoint.js';
import { type OpenApiDocument, withServer } from '../../http/openapi.js';
import { contract } from './contract.js';
import { buildOpenApiDocument } from './document.js';
import { servedBaseUrl } from './served-base-url.js';

/**
 * The OpenAPI document, built once; each answer names in `servers` the
 * address it was served at (scheme, host and, on AWS, the stage), so a client
 * generated from it calls the API it came from.
 */
export const createHandler = (deps: { version: string }) => {
  let document: OpenApiDocument | undefined;
  return createEndpoint({
    auth: contract.auth,
    async run({ event }) {
      document ??= buildOpenApiDocument(deps.version);
      return {
        status: 200,
        body: withServer(document, servedBaseUrl(event)),
        // The body names the Host it was asked at: no shared cache may hand one host's answer to another.
        headers: { 'cache-control': 'no-store', vary: 'Host, X-Forwarded-Proto' },
      };
    },
  });
};

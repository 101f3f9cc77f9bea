import type { ApiHandler } from '../../http/endpoint.js';
import { requestIdOf } from '../../http/endpoint.js';
import { withRequestLog } from '../../http/observability.js';
import { etagOf, staticResponse } from '../../http/static-response.js';
import type { ConsoleBuild } from './build.js';
import { CONSOLE_CSP, renderConsolePage } from './page.js';

/**
 * GET /console: the web console's page (a React app built from console/ at
 * build time, scripts served by GET /console/{asset}). It holds no data and no
 * key: the app asks for an API key and calls the public API with it. Served
 * with a strict Content-Security-Policy (its own origin only).
 */
export const createHandler = (deps: { version: string; loadBuild: () => ConsoleBuild }): ApiHandler => {
  let page: { body: string; etag: string } | undefined;
  const handler: ApiHandler = async (event) => {
    if (!page) {
      const body = renderConsolePage(deps.loadBuild(), deps.version);
      page = { body, etag: etagOf(body) };
    }
    return staticResponse(event, {
      ...page,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'x-request-id': requestIdOf(event),
        // The page names the current build's files, so it is checked again on every visit.
        'cache-control': 'no-cache',
        'content-security-policy': CONSOLE_CSP,
        'referrer-policy': 'no-referrer',
        'x-frame-options': 'DENY',
      },
    });
  };
  return withRequestLog(handler);
};

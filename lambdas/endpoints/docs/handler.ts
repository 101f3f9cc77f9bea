import type { ApiHandler } from '../../http/endpoint.js';
import { requestIdOf } from '../../http/endpoint.js';
import { withRequestLog } from '../../http/observability.js';
import { etagOf, staticResponse } from '../../http/static-response.js';

/**
 * GET /docs: the API reference, an HTML page that renders /v1/openapi.json
 * with Swagger UI (swagger-ui-dist from npm, interactive: "Try it out" calls
 * the API with a key typed into "Authorize"). The renderer's script and
 * stylesheet are inlined, so the page needs nothing but this service: no CDN,
 * works offline. Built once per process; answered with an ETag, so a browser
 * that has it gets a 304.
 */
export interface DocsAssets {
  /** swagger-ui-bundle.js */
  script: string;
  /** swagger-ui.css */
  stylesheet: string;
}

/** Inline text can't end its own element: `</script` and `</style` inside it are escaped (same meaning in JS and CSS strings). */
const inline = (text: string, tag: 'script' | 'style') => text.replace(new RegExp(`</${tag}`, 'gi'), `<\\/${tag}`);

export function renderDocsPage(assets: DocsAssets, version: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Library API reference</title>
<style>${inline(assets.stylesheet, 'style')}</style>
<style>body{margin:0} .topbar{display:none}</style>
</head>
<body>
<noscript>This page renders the OpenAPI document at <a href="v1/openapi.json">v1/openapi.json</a>; it needs JavaScript.</noscript>
<div id="reference" data-version="${version.replace(/[^\w.+-]/g, '')}"></div>
<script>${inline(assets.script, 'script')}</script>
<script>
(function () {
  // The document beside this page: /docs -> /v1/openapi.json, and on AWS /<stage>/docs -> /<stage>/v1/openapi.json.
  var base = window.location.pathname.replace(/\\/docs\\/?$/, '/');
  window.ui = SwaggerUIBundle({
    url: base + 'v1/openapi.json',
    dom_id: '#reference',
    deepLinking: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    displayRequestDuration: true,
    tryItOutEnabled: false,
    persistAuthorization: false,
  });
})();
</script>
</body>
</html>
`;
}

export const createHandler = (deps: { version: string; loadAssets: () => DocsAssets }): ApiHandler => {
  let page: { body: string; etag: string } | undefined;
  const handler: ApiHandler = async (event) => {
    if (!page) {
      const body = renderDocsPage(deps.loadAssets(), deps.version);
      page = { body, etag: etagOf(body) };
    }
    return staticResponse(event, {
      ...page,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'x-request-id': requestIdOf(event),
        'cache-control': 'public, max-age=300',
        'referrer-policy': 'no-referrer',
      },
    });
  };
  return withRequestLog(handler);
};

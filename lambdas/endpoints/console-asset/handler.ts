import type { ApiHandler } from '../../http/endpoint.js';
import { errorResponse, requestIdOf } from '../../http/endpoint.js';
import { HttpError } from '../../http/errors.js';
import { withRequestLog } from '../../http/observability.js';
import { etagOf, staticResponse } from '../../http/static-response.js';
import type { ConsoleBuild } from '../console/build.js';

/**
 * GET /console/{asset}: one of the console's built files, by the exact name the
 * build gave it. Names carry their content's hash, so a browser keeps them for
 * good; any other name is 404.
 */
export const createHandler = (deps: { loadBuild: () => ConsoleBuild }): ApiHandler => {
  let build: { files: ConsoleBuild['files']; etags: Map<string, string> } | undefined;
  const handler: ApiHandler = async (event) => {
    const requestId = requestIdOf(event);
    if (!build) build = { files: deps.loadBuild().files, etags: new Map() };
    const name = event.pathParameters?.asset ?? '';
    const file = build.files.get(name);
    if (!file) return errorResponse(new HttpError('not_found', `the console has no file ${name}`), requestId);
    let etag = build.etags.get(name);
    if (!etag) build.etags.set(name, (etag = etagOf(file.body)));
    return staticResponse(event, {
      body: file.body,
      etag,
      headers: {
        'content-type': file.contentType,
        'x-request-id': requestId,
        'cache-control': 'public, max-age=31536000, immutable',
      },
    });
  };
  return withRequestLog(handler);
};

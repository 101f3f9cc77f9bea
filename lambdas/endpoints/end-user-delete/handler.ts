import { z } from 'zod';
import type { Services } from '../../core/services.js';
import { createEndpoint } from '../../http/endpoint.js';
import { EndUserId } from '../../http/schemas.js';

/** API Gateway passes the path parameter still URL-encoded; decode it once here. */
const EndUserPath = z.object({
  id: z
    .string()
    .transform((raw, ctx) => {
      try {
        return decodeURIComponent(raw);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be URL-encoded' });
        return z.NEVER;
      }
    })
    .pipe(EndUserId),
});

export const createHandler = (deps: Pick<Services, 'endUsers'>) =>
  createEndpoint({
    auth: true,
    path: EndUserPath,
    async run({ tenantId, path }) {
      return { status: 200, body: await deps.endUsers.erase(tenantId, path.id) };
    },
  });

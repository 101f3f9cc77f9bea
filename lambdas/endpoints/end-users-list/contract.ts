import * as z from 'zod/mini';
import { LIMITS } from '../../core/limits.js';
import { cursorParam, limitParam } from '../../http/schemas.js';
import type { RouteContract } from '../route-contract.js';

const EndUsersQuery = z.object({ limit: limitParam(LIMITS.endUsers), cursor: cursorParam });

export const contract = {
  name: 'end-users-list',
  method: 'GET',
  path: '/v1/end-users',
  auth: true,
  summary: "The tenant's end users",
  request: { query: EndUsersQuery },
  access: { documents: 'read' },
} as const satisfies RouteContract;

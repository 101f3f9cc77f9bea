import type { LibraryRef } from '../core/model.js';
import { noteEndUser } from './observability.js';

/** The library a request addresses: the tenant's shared one, or one end user's (named in the request's logs by a hash only). */
export const libraryOf = (tenantId: string, endUserId: string | undefined): LibraryRef => {
  noteEndUser(tenantId, endUserId);
  return { tenantId, endUserId: endUserId ?? null };
};

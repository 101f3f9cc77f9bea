import type { LibraryRef } from '../core/model.js';

/** The library a request addresses: the tenant's shared one, or one end user's. */
export const libraryOf = (tenantId: string, endUserId: string | undefined): LibraryRef => ({
  tenantId,
  endUserId: endUserId ?? null,
});

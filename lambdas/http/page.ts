import type { Page } from '../core/cursor.js';

/** A page in the contract's list shape: `{...extra, count, <field>: [...], has_more, next_cursor}`. */
export const pageBody = <T>(field: string, page: Page<T>, extra: Record<string, unknown> = {}) => ({
  ...extra,
  count: page.items.length,
  [field]: page.items,
  has_more: page.hasMore,
  next_cursor: page.nextCursor,
});

import { monotonicFactory } from 'ulid';

const nextUlid = monotonicFactory();

/** Prefixed ULIDs: sortable by creation time, 26 characters after the prefix. */
export const newId = (prefix: 'file' | 'msg' | 'crt' | 'run' | 'req' | 'ten' | 'key'): string =>
  `${prefix}_${nextUlid()}`;

import type { Document, FieldFilter, FilterScalar } from '../../../../client/src/index.js';

/** What the Documents page lists: the filters a person chose and the page size, kept in the address (`#/documents?kind=file`). */
export interface ListQuery {
  status: Document['status'] | '';
  kind: Document['kind'] | '';
  sourceRefPrefix: string;
  metadataKey: string;
  metadataValue: string;
  limit: number;
}

export const PAGE_SIZES = [5, 10, 20, 50, 100];
const DEFAULT_LIMIT = 20;
const STATUSES = ['processing', 'ready', 'failed'] as const;
const KINDS = ['text', 'file', 'image'] as const;

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | '' =>
  values.includes(value as T) ? (value as T) : '';

export function queryFromParams(params: URLSearchParams): ListQuery {
  const limit = Number(params.get('limit'));
  return {
    status: oneOf(STATUSES, params.get('status')),
    kind: oneOf(KINDS, params.get('kind')),
    sourceRefPrefix: params.get('prefix') ?? '',
    metadataKey: params.get('mkey') ?? '',
    metadataValue: params.get('mvalue') ?? '',
    limit: PAGE_SIZES.includes(limit) ? limit : DEFAULT_LIMIT,
  };
}

export function paramsFromQuery(query: ListQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (query.status) params.set('status', query.status);
  if (query.kind) params.set('kind', query.kind);
  if (query.sourceRefPrefix) params.set('prefix', query.sourceRefPrefix);
  if (query.metadataKey) params.set('mkey', query.metadataKey);
  if (query.metadataKey && query.metadataValue) params.set('mvalue', query.metadataValue);
  if (query.limit !== DEFAULT_LIMIT) params.set('limit', String(query.limit));
  return params;
}

/**
 * A typed value could be meant as a string or as the number or boolean it
 * spells ("2024" is stored either way): match any of them, so the person
 * does not have to know how the document was captured.
 */
export function valueCandidates(text: string): FilterScalar[] {
  const candidates: FilterScalar[] = [text];
  if (text === 'true' || text === 'false') candidates.push(text === 'true');
  else if (/^-?\d+(\.\d+)?$/.test(text) && Number.isFinite(Number(text))) candidates.push(Number(text));
  return candidates;
}

/**
 * The API's `filter` for the chosen kind, source_ref prefix and metadata
 * (status is not a filter field of the contract: the list keeps it itself).
 * A metadata key with no value asks only that the key exists.
 */
export function apiFilter(query: ListQuery): FieldFilter | undefined {
  const filter: FieldFilter = {};
  if (query.kind) filter.kind = query.kind;
  if (query.sourceRefPrefix) filter.source_ref = { prefix: query.sourceRefPrefix };
  const key = query.metadataKey.trim();
  if (key) {
    const value = query.metadataValue;
    const candidates = valueCandidates(value);
    filter[`metadata.${key}`] = !value
      ? { exists: true }
      : candidates.length === 1
        ? candidates[0]!
        : { in: candidates };
  }
  return Object.keys(filter).length ? filter : undefined;
}

/**
 * The filter grammar of the API ("Filters" in the service's API.md), as a
 * type: a wrong field, operator or value shape does not compile. The service
 * checks it again (limits included: at most 4 levels of and/or/not, 32
 * conditions, 1 to 100 values in `in`/`nin`) and answers 422 naming the path
 * inside the filter.
 *
 * ```ts
 * const filter: Filter = {
 *   'metadata.project': 'apollo',                              // equality
 *   'metadata.year': { gte: 2024 },                            // operators: all must hold
 *   or: [{ 'metadata.tags': 'travel' }, { source_ref: { prefix: 'notes/' } }],
 * };
 * ```
 *
 * Written by hand: the OpenAPI description gives a filter as any JSON object.
 */

/** A value compared for equality (`eq`, `ne`, `in`, `nin`). */
export type FilterScalar = string | number | boolean;

/** Document fields read as strings. `kind` is `text`, `file` or `image` for a document; search results also answer to `file_excerpt`, `chat` and `creation`. */
export type FilterStringField = 'source_ref' | 'title' | 'kind' | 'content_type';

/** Document fields that are dates (ISO 8601; compared as dates). */
export type FilterDateField = 'created_at' | 'content_date';

/** A metadata key as a filter field: `metadata.<key>`. */
export type FilterMetadataField = `metadata.${string}`;

export type FilterField = FilterMetadataField | FilterStringField | FilterDateField;

/**
 * Operators on a metadata key; several in one object must all hold. An
 * array-valued key matches `eq`/`in` (and `prefix`) when any of its elements
 * does; a value of another type does not match (not an error); a missing key
 * matches only `ne`, `nin` and `exists: false`.
 */
export interface MetadataOperators {
  eq?: FilterScalar;
  ne?: FilterScalar;
  in?: readonly FilterScalar[];
  nin?: readonly FilterScalar[];
  /** A number, or an ISO 8601 date (compared with values that are dates). */
  gt?: number | string;
  gte?: number | string;
  lt?: number | string;
  lte?: number | string;
  exists?: boolean;
  prefix?: string;
}

/** Operators on source_ref, title, kind and content_type (no ranges). */
export interface StringOperators {
  eq?: string;
  ne?: string;
  in?: readonly string[];
  nin?: readonly string[];
  exists?: boolean;
  prefix?: string;
}

/** Operators on created_at and content_date: ISO 8601 dates (`2026-05-01`, `2026-05-01T12:00:00Z`). */
export interface DateOperators {
  eq?: string;
  ne?: string;
  in?: readonly string[];
  nin?: readonly string[];
  gt?: string;
  gte?: string;
  lt?: string;
  lte?: string;
  exists?: boolean;
  /** On the date's UTC form (`2026-11-22T06:41:03.123456`): `'2026-11'` keeps November 2026. */
  prefix?: string;
}

/** A value (equality) or an object of operators. */
export type MetadataCondition = FilterScalar | MetadataOperators;
export type StringCondition = string | StringOperators;
export type DateCondition = string | DateOperators;

/** Conditions on fields; several fields in one object must all hold. */
export type FieldFilter = { [K in FilterMetadataField]?: MetadataCondition } & {
  [K in FilterStringField]?: StringCondition;
} & {
  [K in FilterDateField]?: DateCondition;
};

/** A filter: `{and: [...]}`, `{or: [...]}`, `{not: ...}`, or conditions on fields. */
export type Filter = { and: readonly Filter[] } | { or: readonly Filter[] } | { not: Filter } | FieldFilter;

/** A document's metadata: at most 32 keys; a value is a string, a finite number, a boolean or an array of strings. */
export type MetadataValue = string | number | boolean | string[];
export type Metadata = Record<string, MetadataValue>;

/** A merge patch on metadata (`documents.update`): a key with a value sets it, a key with null removes it, keys not named stay. */
export type MetadataPatch = Record<string, MetadataValue | null>;

/** The filter as the `filter` query parameter carries it: JSON (URLSearchParams encodes it). */
export const filterParam = (filter: Filter | undefined): string | undefined =>
  filter === undefined ? undefined : JSON.stringify(filter);

import { type Filter, parseFilterParam } from '../core/filter.js';
import { HttpError } from './errors.js';
import { BodyRefused, checkJsonStructure } from './json-body.js';

/**
 * The `filter` query parameter: its JSON read by the rules of a request
 * body's (a key once per object: last-wins would filter by something the
 * client may not have meant, and chat's body refuses the same filter), then
 * by the filter's own (core/filter.ts).
 */
export function filterOfParam(text: string): Filter {
  const filter = parseFilterParam(text);
  try {
    checkJsonStructure(text, 'filter');
  } catch (error) {
    if (error instanceof BodyRefused) throw new HttpError('invalid_request', error.message);
    throw error;
  }
  return filter;
}

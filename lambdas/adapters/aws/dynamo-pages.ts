import { callAws } from './errors.js';

type StartKey = Record<string, unknown> | undefined;

/**
 * Every page of a paginated DynamoDB read (Query, Scan): `read` is called with
 * the previous page's LastEvaluatedKey (undefined first), each call through
 * callAws, until a page has none. Leaving the loop early reads no further page.
 */
export async function* pages<Page extends { LastEvaluatedKey?: Record<string, unknown> }>(
  what: string,
  read: (start: StartKey) => Promise<Page>,
): AsyncGenerator<Page, void, undefined> {
  let start: StartKey;
  do {
    const page = await callAws(what, () => read(start));
    yield page;
    start = page.LastEvaluatedKey;
  } while (start);
}

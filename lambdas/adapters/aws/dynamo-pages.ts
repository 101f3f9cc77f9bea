import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
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

/** Items one BatchWriteItem takes at most. */
const BATCH_WRITE_MAX = 25;

/**
 * Deletes these keys of one table, 25 to a BatchWriteItem. Items DynamoDB
 * leaves unprocessed (under load) are sent again after a doubling wait
 * (to 1 s); still unprocessed after 8 retries is an error, never a spin.
 */
export async function batchDeleteAll(
  client: DynamoDBDocumentClient,
  tableName: string,
  what: string,
  keys: ReadonlyArray<Record<string, unknown>>,
): Promise<void> {
  for (let i = 0; i < keys.length; i += BATCH_WRITE_MAX) {
    let pending = keys.slice(i, i + BATCH_WRITE_MAX).map((Key) => ({ DeleteRequest: { Key } }));
    for (let attempt = 0; pending.length; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(1000, 50 * 2 ** attempt)));
      if (attempt > 8) throw new Error(`${what}: DynamoDB kept items unprocessed`);
      const result = await callAws(what, () =>
        client.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } })),
      );
      pending = (result.UnprocessedItems?.[tableName] ?? []) as typeof pending;
    }
  }
}

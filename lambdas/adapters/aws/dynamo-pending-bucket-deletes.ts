import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { PendingBucketDelete, PendingBucketDeletes } from '../../core/ports.js';
import { batchDeleteAll, pages } from './dynamo-pages.js';
import { callAws, ifCondition } from './errors.js';

/**
 * Deletes owed to callers' buckets, in the buckets table (BUCKETS_TABLE):
 * one item per (tenant, blob key), so a tenant's backlog is one partition
 * (count, removeTenant), and the sparse `due` index orders every tenant's by
 * when each is next due (the sweeper's `due`). The index is eventually
 * consistent: at worst the sweeper retries a delete once more, and deleting
 * an object twice is harmless.
 *
 * | item           | pk                | sk         | attributes (and index keys)                                 |
 * |----------------|-------------------|------------|-------------------------------------------------------------|
 * | pending delete | PENDING#<tenant>  | <blobKey>  | since, attempts, lastError, nextAttemptAt; duePk=DUE, dueKey=<nextAttemptAt>#<tenant>#<blobKey> |
 */
const pendingPk = (tenantId: string) => `PENDING#${tenantId}`;
const DUE = 'DUE';
const dueKey = (nextAttemptAt: string, tenantId: string, blobKey: string) => `${nextAttemptAt}#${tenantId}#${blobKey}`;

export class DynamoPendingBucketDeletes implements PendingBucketDeletes {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async add(
    items: ReadonlyArray<Pick<PendingBucketDelete, 'tenantId' | 'blobKey' | 'since' | 'nextAttemptAt'>>,
  ): Promise<void> {
    for (const item of items) {
      // An entry already owed keeps its history (attempts, first `since`).
      await ifCondition('pendingDeletes.add', () =>
        this.client.send(
          new PutCommand({
            TableName: this.tableName,
            Item: {
              pk: pendingPk(item.tenantId),
              sk: item.blobKey,
              tenantId: item.tenantId,
              blobKey: item.blobKey,
              since: item.since,
              attempts: 0,
              lastError: null,
              nextAttemptAt: item.nextAttemptAt,
              duePk: DUE,
              dueKey: dueKey(item.nextAttemptAt, item.tenantId, item.blobKey),
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        ),
      );
    }
  }

  async due(now: string, limit: number): Promise<PendingBucketDelete[]> {
    const found: PendingBucketDelete[] = [];
    // Every key of a time at or before `now` sorts below `now` followed by '$' ('#' < '$').
    const query = pages('pendingDeletes.due', (start) =>
      this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: 'due',
          KeyConditionExpression: 'duePk = :due AND dueKey < :upper',
          ExpressionAttributeValues: { ':due': DUE, ':upper': `${now}$` },
          Limit: limit,
          ExclusiveStartKey: start,
        }),
      ),
    );
    for await (const page of query) {
      for (const item of page.Items ?? []) if (found.length < limit) found.push(entryOf(item));
      if (found.length >= limit) break;
    }
    return found;
  }

  async remove(tenantId: string, blobKey: string): Promise<void> {
    await callAws('pendingDeletes.remove', () =>
      this.client.send(new DeleteCommand({ TableName: this.tableName, Key: { pk: pendingPk(tenantId), sk: blobKey } })),
    );
  }

  async retryLater(tenantId: string, blobKey: string, lastError: string, nextAttemptAt: string): Promise<void> {
    // Nothing to count when the entry went meanwhile (done, or the tenant unregistered).
    await ifCondition('pendingDeletes.retryLater', () =>
      this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: pendingPk(tenantId), sk: blobKey },
          UpdateExpression:
            'SET attempts = if_not_exists(attempts, :zero) + :one, lastError = :lastError, nextAttemptAt = :next, dueKey = :dueKey',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: {
            ':zero': 0,
            ':one': 1,
            ':lastError': lastError,
            ':next': nextAttemptAt,
            ':dueKey': dueKey(nextAttemptAt, tenantId, blobKey),
          },
        }),
      ),
    );
  }

  async removeTenant(tenantId: string): Promise<number> {
    const keys: Array<{ pk: string; sk: string }> = [];
    for await (const page of this.tenantPages(tenantId, false))
      keys.push(...(page.Items ?? []).map((i) => ({ pk: i.pk as string, sk: i.sk as string })));
    await batchDeleteAll(this.client, this.tableName, 'pendingDeletes.removeTenant', keys);
    return keys.length;
  }

  async count(tenantId: string): Promise<number> {
    let count = 0;
    for await (const page of this.tenantPages(tenantId, true)) count += page.Count ?? 0;
    return count;
  }

  private tenantPages(tenantId: string, countOnly: boolean) {
    return pages('pendingDeletes.query', (start) =>
      this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': pendingPk(tenantId) },
          ConsistentRead: true,
          ...(countOnly ? { Select: 'COUNT' as const } : { ProjectionExpression: 'pk, sk' }),
          ExclusiveStartKey: start,
        }),
      ),
    );
  }
}

function entryOf(item: Record<string, unknown>): PendingBucketDelete {
  return {
    tenantId: item.tenantId as string,
    blobKey: item.blobKey as string,
    since: item.since as string,
    attempts: Number(item.attempts ?? 0),
    lastError: (item.lastError as string | null | undefined) ?? null,
    nextAttemptAt: item.nextAttemptAt as string,
  };
}

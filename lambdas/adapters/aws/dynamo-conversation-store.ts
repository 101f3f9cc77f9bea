import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  PutCommand,
  QueryCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { LibraryRef } from '../../core/model.js';
import type { ConversationStore, ConversationTurnRecord } from '../../core/ports.js';
import { libraryPartitionKey } from './dynamo-document-store.js';
import { batchDeleteAll, pages } from './dynamo-pages.js';
import { callAws } from './errors.js';

/**
 * Conversations' turns in the documents table, in their library's partition
 * (dynamo-document-store.ts has the table's layout): one item per turn,
 * `sk` = `CNV#<conversation>#<run>` (run ids are ULIDs, so a conversation's
 * turns sort by time), tagged with the generation they were written under.
 * Living in the library's partition, a turn goes with its library: the
 * erasure's `deleteLibrary` removes every item of the partition that is not
 * of the live generation, and `removeLibrary` here does the same for turns.
 * Single writes only, as in the rest of the table (it runs on dynalite).
 */
const PREFIX = 'CNV#';
const conversationPrefix = (conversationId: string) => `${PREFIX}${conversationId}#`;

/** Ids never hold '#': the key's separator (the API admits only `cnv_` + ULID). */
const usable = (conversationId: string) => conversationId.length > 0 && !conversationId.includes('#');

export class DynamoConversationStore implements ConversationStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async recentTurns(
    ref: LibraryRef,
    conversationId: string,
    generation: string,
    limit: number,
  ): Promise<ConversationTurnRecord[]> {
    if (!usable(conversationId) || limit < 1) return [];
    const newestFirst: ConversationTurnRecord[] = [];
    const query = this.query({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': libraryPartitionKey(ref), ':prefix': conversationPrefix(conversationId) },
      ScanIndexForward: false,
      ConsistentRead: true,
      Limit: limit,
    });
    for await (const items of query) {
      for (const item of items) {
        if (item.generation === generation && newestFirst.length < limit) {
          newestFirst.push({
            runId: String(item.runId),
            question: String(item.question),
            reply: String(item.reply),
            at: String(item.at),
          });
        }
      }
      if (newestFirst.length >= limit) break;
    }
    return newestFirst.reverse();
  }

  async append(
    ref: LibraryRef,
    conversationId: string,
    generation: string,
    turn: ConversationTurnRecord,
    keep: number,
  ): Promise<void> {
    if (!usable(conversationId)) throw new Error('a conversation id must be non-empty and hold no "#"');
    const pk = libraryPartitionKey(ref);
    await callAws('conversations.append', () =>
      this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            pk,
            sk: `${conversationPrefix(conversationId)}${turn.runId}`,
            tenantId: ref.tenantId,
            endUserId: ref.endUserId,
            conversationId,
            generation,
            runId: turn.runId,
            question: turn.question,
            reply: turn.reply,
            at: turn.at,
          },
        }),
      ),
    );
    // The oldest beyond `keep` go (keys only: the turns' text is not read again).
    const keys: Array<Record<string, unknown>> = [];
    let seen = 0;
    const newest = this.query({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': conversationPrefix(conversationId) },
      ProjectionExpression: 'pk, sk',
      ScanIndexForward: false,
      ConsistentRead: true,
    });
    for await (const items of newest) {
      for (const item of items) if (++seen > keep) keys.push({ pk: item.pk, sk: item.sk });
    }
    await batchDeleteAll(this.client, this.tableName, 'conversations.append', keys);
  }

  async removeTurn(ref: LibraryRef, conversationId: string, runId: string): Promise<void> {
    if (!usable(conversationId)) return;
    await callAws('conversations.removeTurn', () =>
      this.client.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: { pk: libraryPartitionKey(ref), sk: `${conversationPrefix(conversationId)}${runId}` },
        }),
      ),
    );
  }

  async removeLibrary(ref: LibraryRef, options: { keep?: string | null } = {}): Promise<number> {
    const keys: Array<Record<string, unknown>> = [];
    const turns = this.query({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': libraryPartitionKey(ref), ':prefix': PREFIX },
      ProjectionExpression: 'pk, sk, generation',
      ConsistentRead: true,
    });
    for await (const items of turns) {
      for (const item of items)
        if (options.keep == null || item.generation !== options.keep) keys.push({ pk: item.pk, sk: item.sk });
    }
    await batchDeleteAll(this.client, this.tableName, 'conversations.removeLibrary', keys);
    return keys.length;
  }

  /** The items of each page of a query, page after page. */
  private async *query(
    input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>,
  ): AsyncGenerator<Array<Record<string, unknown>>> {
    const all = pages('conversations.query', (start) =>
      this.client.send(new QueryCommand({ TableName: this.tableName, ...input, ExclusiveStartKey: start })),
    );
    for await (const page of all) yield (page.Items ?? []) as Array<Record<string, unknown>>;
  }
}

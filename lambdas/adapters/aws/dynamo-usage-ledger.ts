import { type DynamoDBDocumentClient, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { UsageDay, UsageDelta, UsageLedger } from '../../core/ports.js';
import { pages } from './dynamo-pages.js';
import { callAws } from './errors.js';

/**
 * Spend per tenant per day in DynamoDB: one item per (tenant, day), pk
 * `USAGE#<tenant>`, sk the date; each event is one atomic `ADD`, so
 * concurrent increments never lose a count.
 */
export class DynamoUsageLedger implements UsageLedger {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async add(tenantId: string, date: string, delta: UsageDelta): Promise<void> {
    await callAws('usage.add', () =>
      this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: `USAGE#${tenantId}`, sk: date },
          UpdateExpression: 'ADD tokensUsed :tokens, chatCalls :chats, ocrPages :ocr, captures :captures',
          ExpressionAttributeValues: {
            ':tokens': delta.tokensUsed,
            ':chats': delta.chatCalls,
            ':ocr': delta.ocrPages,
            ':captures': delta.captures,
          },
        }),
      ),
    );
  }

  async days(tenantId: string, from: string, to: string): Promise<UsageDay[]> {
    const out: UsageDay[] = [];
    const query = pages('usage.days', (start) =>
      this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: { ':pk': `USAGE#${tenantId}`, ':from': from, ':to': to },
          ConsistentRead: true,
          ExclusiveStartKey: start,
        }),
      ),
    );
    for await (const page of query) {
      for (const item of page.Items ?? []) {
        out.push({
          date: item.sk as string,
          tokensUsed: Number(item.tokensUsed ?? 0),
          chatCalls: Number(item.chatCalls ?? 0),
          ocrPages: Number(item.ocrPages ?? 0),
          captures: Number(item.captures ?? 0),
        });
      }
    }
    return out;
  }
}

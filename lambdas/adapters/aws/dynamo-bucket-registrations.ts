import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { BucketHealth, BucketRegistrationRecord, BucketRegistrationStore } from '../../core/ports.js';
import { callAws, ifCondition } from './errors.js';

/**
 * Callers' bucket registrations in the buckets table (BUCKETS_TABLE), one
 * item per tenant, and the tenant's external id beside it. Reads are strongly
 * consistent: a capture right after a PUT /v1/bucket goes to the new bucket.
 * The secret arrives sealed (SecretCipher) and is stored as it is.
 *
 * | item         | pk           | sk           | attributes                            |
 * |--------------|--------------|--------------|---------------------------------------|
 * | registration | TENANT#<id>  | REGISTRATION | the record (ports.ts), secret sealed  |
 * | external id  | TENANT#<id>  | EXTERNAL_ID  | externalId (never removed)            |
 * | pending delete | see dynamo-pending-bucket-deletes.ts                               |
 */
const REGISTRATION = 'REGISTRATION';
const EXTERNAL_ID = 'EXTERNAL_ID';
const tenantPk = (tenantId: string) => `TENANT#${tenantId}`;

const FIELDS = [
  'tenantId',
  'provider',
  'bucket',
  'region',
  'endpoint',
  'prefix',
  'auth',
  'roleArn',
  'accessKeyId',
  'sealedSecret',
  'location',
  'verifiedAt',
  'state',
  'lastError',
  'lastErrorAt',
] as const satisfies ReadonlyArray<keyof BucketRegistrationRecord>;

export class DynamoBucketRegistrations implements BucketRegistrationStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(tenantId: string): Promise<BucketRegistrationRecord | null> {
    const result = await callAws('buckets.get', () =>
      this.client.send(
        new GetCommand({
          TableName: this.tableName,
          Key: { pk: tenantPk(tenantId), sk: REGISTRATION },
          ConsistentRead: true,
        }),
      ),
    );
    if (!result.Item) return null;
    const item = result.Item;
    return Object.fromEntries(FIELDS.map((f) => [f, item[f] ?? null])) as unknown as BucketRegistrationRecord;
  }

  async put(record: BucketRegistrationRecord): Promise<void> {
    const fields = Object.fromEntries(FIELDS.map((f) => [f, record[f] ?? null]));
    await callAws('buckets.put', () =>
      this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { pk: tenantPk(record.tenantId), sk: REGISTRATION, ...fields },
        }),
      ),
    );
  }

  async delete(tenantId: string): Promise<boolean> {
    const result = await callAws('buckets.delete', () =>
      this.client.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: { pk: tenantPk(tenantId), sk: REGISTRATION },
          ReturnValues: 'ALL_OLD',
        }),
      ),
    );
    return result.Attributes !== undefined;
  }

  async recordHealth(tenantId: string, location: string, health: BucketHealth): Promise<void> {
    // Only the registration the failure (or success) was about: a replace that won since is left alone.
    await ifCondition('buckets.recordHealth', () =>
      this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: tenantPk(tenantId), sk: REGISTRATION },
          UpdateExpression: 'SET #state = :state, #lastError = :lastError, #lastErrorAt = :lastErrorAt',
          ConditionExpression: 'attribute_exists(pk) AND #location = :location',
          ExpressionAttributeNames: {
            '#state': 'state',
            '#lastError': 'lastError',
            '#lastErrorAt': 'lastErrorAt',
            '#location': 'location',
          },
          ExpressionAttributeValues: {
            ':state': health.state,
            ':lastError': health.lastError,
            ':lastErrorAt': health.lastErrorAt,
            ':location': location,
          },
        }),
      ),
    );
  }

  async externalId(tenantId: string, candidate: string): Promise<string> {
    // One conditional write decides: the first candidate stored stays, every later call reads it back.
    const result = await callAws('buckets.externalId', () =>
      this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: tenantPk(tenantId), sk: EXTERNAL_ID },
          UpdateExpression: 'SET externalId = if_not_exists(externalId, :candidate)',
          ExpressionAttributeValues: { ':candidate': candidate },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return result.Attributes!.externalId as string;
  }
}

import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { newId } from '../../core/ids.js';
import type { ApiKeyRecord, TenantRecord } from '../../core/model.js';
import type { TenantStore } from '../../core/ports.js';
import { pages } from './dynamo-pages.js';
import { callAws, ifCondition } from './errors.js';

/**
 * Tenants and API keys in one DynamoDB table (pk, sk), with no secondary index
 * so every read on the request path is strongly consistent, and no
 * transaction: each decision is one conditional write.
 *
 * | item            | pk                 | sk        | attributes                              |
 * |-----------------|--------------------|-----------|-----------------------------------------|
 * | tenant          | TENANT#<id>        | TENANT    | tenantId, name, createdAt               |
 * | tenant name     | TENANTNAME#<name>  | TENANT    | tenantId (makes names unique)           |
 * | key (by hash)   | KEYHASH#<sha256>   | KEY       | keyId, tenantId, prefix, createdAt, revokedAt |
 * | key (by id)     | KEYID#<keyId>      | KEY       | keyHash                                 |
 * | key of a tenant | TENANT#<id>        | KEY#<keyId> | keyHash                               |
 *
 * Only the SHA-256 of a key is stored; the authorizer reads one item by it.
 */
interface KeyItem {
  keyId: string;
  tenantId: string;
  keyHash: string;
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
}

export class DynamoTenantStore implements TenantStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async createTenant(name: string, at: string): Promise<TenantRecord> {
    const tenant: TenantRecord = { id: newId('ten'), name, createdAt: at };
    // The record first, then the name claim (one conditional write decides uniqueness).
    await this.put('tenants.createTenant', {
      pk: `TENANT#${tenant.id}`,
      sk: 'TENANT',
      tenantId: tenant.id,
      name,
      createdAt: at,
    });
    let named = false;
    try {
      named = await ifCondition('tenants.createTenant', () =>
        this.putItem({ pk: `TENANTNAME#${name}`, sk: 'TENANT', tenantId: tenant.id }, true),
      );
    } finally {
      // The name is taken (or the claim failed): the record goes.
      if (!named) {
        await callAws('tenants.createTenant', () =>
          this.client.send(
            new DeleteCommand({ TableName: this.tableName, Key: { pk: `TENANT#${tenant.id}`, sk: 'TENANT' } }),
          ),
        );
      }
    }
    if (!named) throw new Error(`a tenant named ${name} already exists`);
    return tenant;
  }

  private async put(what: string, item: Record<string, unknown>, onlyIfNew = false): Promise<void> {
    await callAws(what, () => this.putItem(item, onlyIfNew));
  }

  private putItem(item: Record<string, unknown>, onlyIfNew: boolean): Promise<unknown> {
    return this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: item,
        ...(onlyIfNew ? { ConditionExpression: 'attribute_not_exists(pk)' } : {}),
      }),
    );
  }

  async findTenantByName(name: string): Promise<TenantRecord | null> {
    const byName = await callAws('tenants.findTenantByName', () =>
      this.client.send(
        new GetCommand({
          TableName: this.tableName,
          Key: { pk: `TENANTNAME#${name}`, sk: 'TENANT' },
          ConsistentRead: true,
        }),
      ),
    );
    const tenantId = byName.Item?.tenantId as string | undefined;
    if (!tenantId) return null;
    const tenant = await this.getTenant(tenantId);
    return tenant;
  }

  private async getTenant(tenantId: string): Promise<TenantRecord | null> {
    const result = await callAws('tenants.getTenant', () =>
      this.client.send(
        new GetCommand({
          TableName: this.tableName,
          Key: { pk: `TENANT#${tenantId}`, sk: 'TENANT' },
          ConsistentRead: true,
        }),
      ),
    );
    const item = result.Item;
    return item
      ? { id: item.tenantId as string, name: item.name as string, createdAt: item.createdAt as string }
      : null;
  }

  async countTenants(): Promise<number> {
    let count = 0;
    const scan = pages('tenants.countTenants', (start) =>
      this.client.send(
        new ScanCommand({
          TableName: this.tableName,
          FilterExpression: 'sk = :tenant AND begins_with(pk, :prefix)',
          ExpressionAttributeValues: { ':tenant': 'TENANT', ':prefix': 'TENANT#' },
          Select: 'COUNT',
          ExclusiveStartKey: start,
        }),
      ),
    );
    for await (const page of scan) count += page.Count ?? 0;
    return count;
  }

  async addKey(key: {
    keyId: string;
    tenantId: string;
    hash: string;
    prefix: string;
    createdAt: string;
  }): Promise<void> {
    // Pointers first, the item that grants access last: a crash part-way never leaves a usable key unlisted.
    await this.put('tenants.addKey', { pk: `KEYID#${key.keyId}`, sk: 'KEY', keyHash: key.hash }, true);
    await this.put('tenants.addKey', { pk: `TENANT#${key.tenantId}`, sk: `KEY#${key.keyId}`, keyHash: key.hash });
    const item: KeyItem = {
      keyId: key.keyId,
      tenantId: key.tenantId,
      keyHash: key.hash,
      prefix: key.prefix,
      createdAt: key.createdAt,
      revokedAt: null,
    };
    await this.put('tenants.addKey', { pk: `KEYHASH#${key.hash}`, sk: 'KEY', ...item }, true);
  }

  async tenantForKeyHash(hash: string): Promise<string | null> {
    const result = await callAws('tenants.tenantForKeyHash', () =>
      this.client.send(
        new GetCommand({ TableName: this.tableName, Key: { pk: `KEYHASH#${hash}`, sk: 'KEY' }, ConsistentRead: true }),
      ),
    );
    const item = result.Item as KeyItem | undefined;
    return item && !item.revokedAt ? item.tenantId : null;
  }

  /** Every key, in no particular order (KeyService orders them). */
  async listKeys(): Promise<ApiKeyRecord[]> {
    const keys: KeyItem[] = [];
    const scan = pages('tenants.listKeys', (start) =>
      this.client.send(
        new ScanCommand({
          TableName: this.tableName,
          FilterExpression: 'begins_with(pk, :prefix)',
          ExpressionAttributeValues: { ':prefix': 'KEYHASH#' },
          ExclusiveStartKey: start,
        }),
      ),
    );
    for await (const page of scan) keys.push(...((page.Items ?? []) as KeyItem[]));
    const tenantIds = [...new Set(keys.map((k) => k.tenantId))];
    const tenants = await Promise.all(tenantIds.map((id) => this.getTenant(id)));
    const names = new Map(tenantIds.map((id, i) => [id, tenants[i]?.name ?? '']));
    return keys.map((k) => ({
      keyId: k.keyId,
      tenantId: k.tenantId,
      tenantName: names.get(k.tenantId) ?? '',
      prefix: k.prefix,
      createdAt: k.createdAt,
      revokedAt: k.revokedAt ?? null,
    }));
  }

  async revokeKey(keyId: string, at: string): Promise<boolean> {
    const pointer = await callAws('tenants.revokeKey', () =>
      this.client.send(
        new GetCommand({ TableName: this.tableName, Key: { pk: `KEYID#${keyId}`, sk: 'KEY' }, ConsistentRead: true }),
      ),
    );
    const hash = pointer.Item?.keyHash as string | undefined;
    return hash ? this.revokeHash(hash, at) : false;
  }

  /** Marks the key revoked unless it already is; true when this call revoked it. */
  private revokeHash(hash: string, at: string): Promise<boolean> {
    return ifCondition('tenants.revokeKey', () =>
      this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: `KEYHASH#${hash}`, sk: 'KEY' },
          UpdateExpression: 'SET revokedAt = :at',
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(revokedAt) OR revokedAt = :null)',
          ExpressionAttributeValues: { ':at': at, ':null': null },
        }),
      ),
    );
  }

  async revokeTenantKeys(tenantId: string, at: string, keep?: string): Promise<number> {
    let revoked = 0;
    const keys = pages('tenants.revokeTenantKeys', (start) =>
      this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :key)',
          ExpressionAttributeValues: { ':pk': `TENANT#${tenantId}`, ':key': 'KEY#' },
          ConsistentRead: true,
          ExclusiveStartKey: start,
        }),
      ),
    );
    for await (const page of keys) {
      for (const item of page.Items ?? []) {
        if (item.sk === `KEY#${keep}`) continue;
        if (await this.revokeHash(item.keyHash as string, at)) revoked += 1;
      }
    }
    return revoked;
  }
}

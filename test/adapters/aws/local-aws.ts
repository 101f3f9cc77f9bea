import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DescribeTableCommand,
  DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import dynalite from 'dynalite';
import S3rver from 's3rver';
import type { TableSchema } from '../../../lambdas/adapters/aws/table-schemas.js';

const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const region = 'us-east-1';

/** dynalite (DynamoDB's API on LevelDB, in memory), started in this process. */
export async function startDynalite() {
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 }) as Server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const raw = new DynamoDBClient({ endpoint: `http://127.0.0.1:${port}`, region, credentials });
  const client = DynamoDBDocumentClient.from(raw, { marshallOptions: { removeUndefinedValues: true } });
  let n = 0;
  return {
    client,
    async endpoint() {
      return `http://127.0.0.1:${port}`;
    },
    /** Creates a fresh table with the given schema, as the CDK stack defines it. */
    async createTable(schema: TableSchema): Promise<string> {
      const name = `t${++n}-${Math.random().toString(36).slice(2, 8)}`;
      await raw.send(new CreateTableCommand(tableInput(name, schema)));
      // dynalite answers ResourceNotFound while a table is CREATING (a timer's turn away, later on a loaded machine).
      for (let tries = 0; tries < 200; tries++) {
        const { Table } = await raw.send(new DescribeTableCommand({ TableName: name }));
        if (Table?.TableStatus === 'ACTIVE') break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return name;
    },
    async close() {
      raw.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function tableInput(name: string, schema: TableSchema): CreateTableCommandInput {
  const attributes = new Set([schema.partitionKey, schema.sortKey]);
  for (const i of schema.localIndexes) attributes.add(i.sortKey);
  for (const i of schema.globalIndexes) attributes.add(i.partitionKey).add(i.sortKey);
  return {
    TableName: name,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [...attributes].map((AttributeName) => ({ AttributeName, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: schema.partitionKey, KeyType: 'HASH' },
      { AttributeName: schema.sortKey, KeyType: 'RANGE' },
    ],
    LocalSecondaryIndexes: schema.localIndexes.length
      ? schema.localIndexes.map((i) => ({
          IndexName: i.name,
          KeySchema: [
            { AttributeName: schema.partitionKey, KeyType: 'HASH' },
            { AttributeName: i.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        }))
      : undefined,
    GlobalSecondaryIndexes: schema.globalIndexes.length
      ? schema.globalIndexes.map((i) => ({
          IndexName: i.name,
          KeySchema: [
            { AttributeName: i.partitionKey, KeyType: 'HASH' },
            { AttributeName: i.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        }))
      : undefined,
  };
}

/** s3rver (S3's API on a temporary folder), started in this process. */
export async function startS3rver() {
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'));
  const s3rver = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
  const { port } = (await s3rver.run()) as AddressInfo;
  const client = new S3Client({ endpoint: `http://127.0.0.1:${port}`, region, credentials, forcePathStyle: true });
  return {
    client,
    async close() {
      client.destroy();
      await s3rver.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

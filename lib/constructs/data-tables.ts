import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import {
  BUCKETS_TABLE,
  DOCUMENTS_TABLE,
  type TableSchema,
  TENANTS_TABLE,
  USAGE_TABLE,
} from '../../lambdas/adapters/aws/table-schemas.js';

export interface DataTablesProps {
  readonly removalPolicy: RemovalPolicy;
  /** Days of point-in-time recovery (1 to 35): how long an erased record can still be restored. */
  readonly pitrRecoveryDays?: number;
}

/**
 * The DynamoDB tables: tenants and hashed keys; libraries, documents and
 * dedup claims; usage counters; callers' bucket registrations and the
 * deletes owed to their buckets. On demand, point-in-time recovery, encrypted
 * with an AWS managed key, deletion-protected when retained, with a time to
 * live where the schema names one. Key schemas come
 * from the adapters' own definitions (table-schemas.ts). Logical ids are
 * pinned: renaming a construct never replaces a table.
 */
export class DataTables extends Construct {
  readonly tenants: dynamodb.Table;
  readonly documents: dynamodb.Table;
  readonly usage: dynamodb.Table;
  readonly buckets: dynamodb.Table;

  constructor(scope: Construct, id: string, props: DataTablesProps) {
    super(scope, id);
    this.tenants = this.table('TenantsTable', TENANTS_TABLE, props);
    this.documents = this.table('DocumentsTable', DOCUMENTS_TABLE, props);
    this.usage = this.table('UsageTable', USAGE_TABLE, props);
    this.buckets = this.table('BucketsTable', BUCKETS_TABLE, props);
  }

  private table(id: string, schema: TableSchema, props: DataTablesProps): dynamodb.Table {
    const key = (name: string) => ({ name, type: dynamodb.AttributeType.STRING });
    const table = new dynamodb.Table(this, id, {
      partitionKey: key(schema.partitionKey),
      sortKey: key(schema.sortKey),
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: {
        pointInTimeRecoveryEnabled: true,
        recoveryPeriodInDays: props.pitrRecoveryDays ?? 35,
      },
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      deletionProtection: props.removalPolicy === RemovalPolicy.RETAIN,
      removalPolicy: props.removalPolicy,
      timeToLiveAttribute: schema.timeToLiveAttribute,
    });
    for (const index of schema.localIndexes) {
      table.addLocalSecondaryIndex({
        indexName: index.name,
        sortKey: key(index.sortKey),
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }
    for (const index of schema.globalIndexes) {
      table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: key(index.partitionKey),
        sortKey: key(index.sortKey),
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }
    (table.node.defaultChild as dynamodb.CfnTable).overrideLogicalId(id);
    return table;
  }
}

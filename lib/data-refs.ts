import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as opensearch from 'aws-cdk-lib/aws-opensearchservice';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { BUCKETS_TABLE, DOCUMENTS_TABLE } from '../lambdas/adapters/aws/table-schemas.js';

/**
 * What the API stack knows of the data: plain values that the stateful stack
 * exports under fixed names (`<stack>-DocumentsTableArn`, ...). Fixed names
 * keep the API stack's templates, its IAM policies and its nag findings
 * stable, and CloudFormation refuses to remove an export still in use.
 */
export interface DataRefs {
  readonly tenantsTableArn: string;
  readonly documentsTableArn: string;
  readonly usageTableArn: string;
  readonly bucketsTableArn: string;
  readonly bucketSecretsKeyArn: string;
  readonly endUserLogKeyArn: string;
  readonly blobBucketArn: string;
  readonly blobBucketName: string;
  readonly searchDomainArn: string;
  readonly searchDomainEndpoint: string;
}

/** The data resources as the API stack uses them: imported from DataRefs, for grants and names. */
export class ImportedData extends Construct {
  readonly tenants: dynamodb.ITable;
  readonly documents: dynamodb.ITable;
  readonly usage: dynamodb.ITable;
  readonly buckets: dynamodb.ITable;
  readonly secretsKey: kms.IKey;
  readonly endUserLogKey: kms.IKey;
  readonly bucket: s3.IBucket;
  readonly domain: opensearch.IDomain;

  constructor(scope: Construct, id: string, refs: DataRefs) {
    super(scope, id);
    this.tenants = dynamodb.Table.fromTableAttributes(this, 'Tenants', { tableArn: refs.tenantsTableArn });
    this.documents = dynamodb.Table.fromTableAttributes(this, 'Documents', {
      tableArn: refs.documentsTableArn,
      localIndexes: DOCUMENTS_TABLE.localIndexes.map((i) => i.name),
      globalIndexes: DOCUMENTS_TABLE.globalIndexes.map((i) => i.name),
    });
    this.usage = dynamodb.Table.fromTableAttributes(this, 'Usage', { tableArn: refs.usageTableArn });
    this.buckets = dynamodb.Table.fromTableAttributes(this, 'Buckets', {
      tableArn: refs.bucketsTableArn,
      globalIndexes: BUCKETS_TABLE.globalIndexes.map((i) => i.name),
    });
    this.secretsKey = kms.Key.fromKeyArn(this, 'BucketSecretsKey', refs.bucketSecretsKeyArn);
    this.endUserLogKey = kms.Key.fromKeyArn(this, 'EndUserLogKey', refs.endUserLogKeyArn);
    this.bucket = s3.Bucket.fromBucketAttributes(this, 'Blobs', {
      bucketArn: refs.blobBucketArn,
      bucketName: refs.blobBucketName,
    });
    this.domain = opensearch.Domain.fromDomainAttributes(this, 'Search', {
      domainArn: refs.searchDomainArn,
      domainEndpoint: refs.searchDomainEndpoint,
    });
  }
}

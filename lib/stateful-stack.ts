import { RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { LibraryConfig } from './config.js';
import { BlobStorage } from './constructs/blob-storage.js';
import { BucketSecretsKey } from './constructs/bucket-secrets-key.js';
import { DataTables } from './constructs/data-tables.js';
import { EndUserLogKey } from './constructs/end-user-log-key.js';
import { SearchDomain } from './constructs/search-domain.js';
import type { DataRefs } from './data-refs.js';

export interface StatefulStackProps extends StackProps {
  readonly config: LibraryConfig;
}

/**
 * Everything that holds data: tables, the blob bucket, the search domain, the
 * secrets key and the end-user log key. It only composes; the stateless API stack receives these by
 * props, so redeploying or renaming the API never touches data.
 */
export class StatefulStack extends Stack {
  readonly tables: DataTables;
  readonly blobs: BlobStorage;
  readonly search: SearchDomain;
  readonly secretsKey: BucketSecretsKey;
  /** The HMAC key end users are named with in logs. */
  readonly endUserLogKey: EndUserLogKey;
  /** The values the API stack imports, exported under fixed names. */
  readonly refs: DataRefs;

  constructor(scope: Construct, id: string, props: StatefulStackProps) {
    super(scope, id, props);
    const removalPolicy = props.config.removalPolicy === 'destroy' ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN;
    this.tables = new DataTables(this, 'Tables', {
      removalPolicy,
      pitrRecoveryDays: props.config.erasure.pitrRecoveryDays,
    });
    // Browser apps allowed on the API also follow its redirects to presigned URLs of this bucket (GET /v1/documents/{id}/file).
    this.blobs = new BlobStorage(this, 'Blobs', {
      removalPolicy,
      browserDownloads: props.config.cors.allowedOrigins.length > 0,
    });
    this.search = new SearchDomain(this, 'Search', {
      ...props.config.search,
      removalPolicy,
      logRetentionDays: props.config.logRetentionDays,
    });
    this.secretsKey = new BucketSecretsKey(this, 'BucketSecrets', { removalPolicy });
    this.endUserLogKey = new EndUserLogKey(this, 'EndUserLogs', { removalPolicy });
    const out = (value: string, name: string) => this.exportValue(value, { name: `${this.stackName}-${name}` });
    this.refs = {
      tenantsTableArn: out(this.tables.tenants.tableArn, 'TenantsTableArn'),
      documentsTableArn: out(this.tables.documents.tableArn, 'DocumentsTableArn'),
      usageTableArn: out(this.tables.usage.tableArn, 'UsageTableArn'),
      bucketsTableArn: out(this.tables.buckets.tableArn, 'BucketsTableArn'),
      bucketSecretsKeyArn: out(this.secretsKey.key.keyArn, 'BucketSecretsKeyArn'),
      endUserLogKeyArn: out(this.endUserLogKey.key.keyArn, 'EndUserLogKeyArn'),
      blobBucketArn: out(this.blobs.bucket.bucketArn, 'BlobBucketArn'),
      blobBucketName: out(this.blobs.bucket.bucketName, 'BlobBucketName'),
      searchDomainArn: out(this.search.domain.domainArn, 'SearchDomainArn'),
      searchDomainEndpoint: out(this.search.domain.domainEndpoint, 'SearchDomainEndpoint'),
    };
  }
}

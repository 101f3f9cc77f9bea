import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { TEXTRACT_STAGING_PREFIX } from '../../lambdas/wiring/aws/config.js';

export interface BlobStorageProps {
  readonly removalPolicy: RemovalPolicy;
  /**
   * Browser apps call the API (it allows CORS origins): the presigned URLs
   * GET /v1/documents/{id}/file redirects to must answer them too (see the
   * class comment).
   */
  readonly browserDownloads?: boolean;
}

/**
 * The service's bucket for raw file bytes: private (Block Public Access,
 * bucket-owner objects), encrypted (SSE-S3), TLS only, access-logged. Not
 * versioned, on purpose: erasing an end user must really delete its bytes,
 * and a noncurrent version would keep them. For the same reason a PDF staged
 * for Textract, which the ingest function deletes when the job ends, expires
 * after a day should the function stop before it could.
 *
 * With browser downloads, a GET from any origin gets CORS headers (and may
 * read Content-Disposition): a browser following the API's redirect to a
 * presigned URL sends `Origin: null` (its origin is tainted by the
 * cross-origin redirect), so no list of origins could match. The bucket stays
 * private: an unsigned GET is still refused, and only a URL the API presigned
 * for its caller (a capability for one object, for minutes) reads anything.
 */
export class BlobStorage extends Construct {
  readonly bucket: s3.Bucket;
  readonly accessLogs: s3.Bucket;

  constructor(scope: Construct, id: string, props: BlobStorageProps) {
    super(scope, id);
    this.accessLogs = new s3.Bucket(this, 'AccessLogs', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(90) }],
      removalPolicy: props.removalPolicy,
    });
    this.bucket = new s3.Bucket(this, 'Blobs', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      versioned: false,
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: 'blobs/',
      lifecycleRules: [
        { abortIncompleteMultipartUploadAfter: Duration.days(1) },
        { id: 'TextractStaging', prefix: TEXTRACT_STAGING_PREFIX, expiration: Duration.days(1) },
      ],
      removalPolicy: props.removalPolicy,
      ...(props.browserDownloads
        ? {
            cors: [
              {
                allowedMethods: [s3.HttpMethods.GET],
                allowedOrigins: ['*'],
                exposedHeaders: ['Content-Disposition', 'Content-Length'],
                maxAge: 3600,
              },
            ],
          }
        : {}),
    });
    (this.bucket.node.defaultChild as s3.CfnBucket).overrideLogicalId('BlobBucket');
    (this.accessLogs.node.defaultChild as s3.CfnBucket).overrideLogicalId('BlobAccessLogsBucket');
  }
}

import { S3Client } from '@aws-sdk/client-s3';
import { S3BlobStore } from '../adapters/aws/s3-blob-store.js';
import { awsConfig } from './config.js';
import { tracer } from './observability.js';
import { sdkOptions } from './sdk.js';

/** The blob store on the service's bucket, its S3 client made on the first call. */
let blobs: S3BlobStore | undefined;

export function blobStore(): S3BlobStore {
  return (blobs ??= new S3BlobStore(tracer.captureAWSv3Client(new S3Client(sdkOptions())), awsConfig().blobBucket));
}

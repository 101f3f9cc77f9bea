import { S3Client } from '@aws-sdk/client-s3';
import { S3BlobStore } from '../../adapters/aws/s3-blob-store.js';
import { awsConfig } from './config.js';
import { tracer } from './observability.js';
import { sdkOptions } from './sdk.js';

/** The S3 client of this Lambda environment, made on the first call; the blob store and Textract's staging (extractors.ts) share it. */
let client: S3Client | undefined;
let blobs: S3BlobStore | undefined;

export function s3Client(): S3Client {
  return (client ??= tracer.captureAWSv3Client(new S3Client(sdkOptions())));
}

/** The blob store on the service's bucket. */
export function blobStore(): S3BlobStore {
  return (blobs ??= new S3BlobStore(s3Client(), awsConfig().blobBucket));
}

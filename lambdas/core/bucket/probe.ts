import { randomBytes } from 'node:crypto';
import { BucketError, DomainError, FORBIDDEN_ENDPOINT_DETAIL, invalidRequest } from '../errors.js';
import type { BlobStore } from '../ports.js';
import { probeKeyFor } from './placement.js';

/** The steps of the probe, in order, as the customer reads them in a failure's message. */
type ProbeStep = 'assume role' | 'write' | 'read' | 'compare' | 'delete';

export interface ProbeTarget {
  bucket: string;
  prefix: string;
  endpoint: string | null;
  roleArn: string | null;
}

/**
 * Proves the service can use the bucket before anything is registered:
 * writes an object with a random name under the prefix, reads it back,
 * compares the bytes and deletes it. Throws the contract's 422
 * (`bucket_access_denied` when the bucket or STS answered and refused,
 * `bucket_unreachable` when it did not answer or misbehaved;
 * `invalid_request` naming `endpoint` when the address guard refused it),
 * its message naming the step and what to check. A probe object left by a
 * failed read is deleted on the way out when the bucket allows it.
 */
export async function probeBucket(store: BlobStore, target: ProbeTarget): Promise<void> {
  const key = probeKeyFor(target.prefix, randomBytes(12).toString('hex'));
  const written = new Uint8Array(Buffer.from(`library access probe ${randomBytes(16).toString('hex')}\n`));
  await attempt('write', target, key, () => store.put(key, written, 'text/plain'));
  try {
    const read = await attempt('read', target, key, () => store.get(key));
    if (!read) throw failure('read', target, key, null);
    if (Buffer.compare(Buffer.from(read), Buffer.from(written)) !== 0) throw failure('compare', target, key, null);
  } catch (error) {
    await store.delete(key).catch(() => undefined); // leave no probe object behind when we can
    throw error;
  }
  await attempt('delete', target, key, () => store.delete(key));
}

async function attempt<T>(step: ProbeStep, target: ProbeTarget, key: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof BucketError)) throw error;
    throw failure(error.during === 'assume_role' ? 'assume role' : step, target, key, error);
  }
}

/** The 422 a failed step answers, with what the customer should check. */
function failure(step: ProbeStep, target: ProbeTarget, key: string, error: BucketError | null): DomainError {
  if (error?.kind === 'forbidden_endpoint') {
    // The same words whatever the adapter saw: the refused address stays in the operator's log.
    return invalidRequest(
      `endpoint: ${FORBIDDEN_ENDPOINT_DETAIL}; an endpoint must be https to a public address (not loopback, private, link-local, a metadata address or another special-purpose range)`,
    );
  }
  const where = `bucket "${target.bucket}"${target.endpoint ? ` at ${target.endpoint}` : ''}`;
  const objects = `"${target.bucket}/${target.prefix}*"`;
  const what = error ? ` (${error.detail})` : '';
  if (error?.kind === 'unreachable') {
    const check =
      step === 'assume role'
        ? 'AWS STS could not be reached; try again'
        : `check the endpoint and region, and that the bucket accepts connections from the internet; try again if it was throttling`;
    return new DomainError('bucket_unreachable', `${step}: the ${where} could not be reached${what}; ${check}`);
  }
  if (!error) {
    const why =
      step === 'read'
        ? 'the probe object was not found right after it was written'
        : 'the probe object read back differs from the bytes written';
    return new DomainError(
      'bucket_unreachable',
      `${step}: ${why} (object "${key}"); check that nothing under the prefix rewrites, moves or expires objects, and that the endpoint is an S3-compatible store`,
    );
  }
  return new DomainError(
    'bucket_access_denied',
    `${step}: ${refusal(step, where, key)}${what}; ${hint(step, error.detail, objects, target)}`,
  );
}

function refusal(step: ProbeStep, where: string, key: string): string {
  switch (step) {
    case 'assume role':
      return 'the service could not assume the role';
    case 'write':
      return `the ${where} refused writing the probe object "${key}"`;
    case 'read':
      return `the ${where} refused reading back the probe object "${key}"`;
    default:
      return `the ${where} refused deleting the probe object "${key}" (it is still there: delete it yourself)`;
  }
}

function hint(step: ProbeStep, detail: string, objects: string, target: ProbeTarget): string {
  if (step === 'assume role') {
    return `check that role ${target.roleArn} exists and trusts the principal with this tenant's external id exactly as GET /v1/bucket/trust-policy gives them`;
  }
  if (/InvalidAccessKeyId|SignatureDoesNotMatch|InvalidToken|HTTP 401/.test(detail))
    return 'check access_key_id and secret_access_key (a pair of the same key, not revoked)';
  if (/NoSuchBucket/.test(detail)) return 'check the bucket name, and the region or endpoint it lives at';
  if (/PermanentRedirect|AuthorizationHeaderMalformed|IllegalLocationConstraint|HTTP 301/.test(detail))
    return 'check the region: the bucket lives in another one';
  const action = step === 'write' ? 's3:PutObject' : step === 'read' ? 's3:GetObject' : 's3:DeleteObject';
  const kms =
    step === 'delete'
      ? ''
      : ` (and ${step === 'write' ? 'kms:GenerateDataKey' : 'kms:Decrypt'} on the key of a bucket encrypted with a customer key)`;
  return `check that the credentials allow ${action} on ${objects}${kms}${step === 'delete' ? ': the service deletes objects when documents and end users are deleted' : ''}`;
}

import { invalidRequest } from '../errors.js';
import type { BucketProvider, BucketRegistrationRecord } from '../ports.js';

/** PUT /v1/bucket's body after its shape was validated (http/schemas.ts). */
export interface BucketRequest {
  provider: BucketProvider;
  bucket: string;
  region?: string;
  endpoint?: string;
  prefix?: string;
  roleArn?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
}

/** The registration's settings as they will be stored, with the secret still in clear (sealed before storing). */
export type NormalizedRegistration = Pick<
  BucketRegistrationRecord,
  'provider' | 'bucket' | 'region' | 'endpoint' | 'prefix' | 'auth' | 'roleArn' | 'accessKeyId'
> & {
  secretAccessKey: string | null;
};

/** Objects go under this prefix when none is given: the customer's permissions policy names it. */
const DEFAULT_PREFIX = 'library/';
const DEFAULT_S3_REGION = 'us-east-1';
/** R2's only region; it takes `us-east-1` and an empty region as aliases. */
const R2_REGION = 'auto';

const ROLE_ARN = /^arn:aws(?:-cn|-us-gov)?:iam::\d{12}:role\/[\w+=,.@/-]{1,512}$/;
const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/**
 * The rules of a registration beyond its shape (docs/bucket.md): exactly
 * one way in (a role, S3 on AWS only; or a key pair), R2 with its
 * endpoint and region `auto`, an endpoint that is an https origin (http only
 * to loopback, and only where the operator allows private endpoints; the
 * address itself is checked when connecting), and a prefix that is a clean
 * relative path ending in `/`.
 */
export function normalizeRegistration(
  request: BucketRequest,
  options: { allowPrivateEndpoints: boolean },
): NormalizedRegistration {
  const hasRole = request.roleArn !== undefined;
  const hasKeys = request.accessKeyId !== undefined || request.secretAccessKey !== undefined;
  if (hasRole && hasKeys)
    throw invalidRequest('role_arn: send either role_arn or access_key_id and secret_access_key, not both');
  if (!hasRole && !hasKeys) throw invalidRequest('role_arn: send role_arn, or access_key_id and secret_access_key');
  if (hasKeys && request.accessKeyId === undefined)
    throw invalidRequest('access_key_id: required with secret_access_key');
  if (hasKeys && request.secretAccessKey === undefined)
    throw invalidRequest('secret_access_key: required with access_key_id');
  if (hasRole && !ROLE_ARN.test(request.roleArn!))
    throw invalidRequest('role_arn: must be an IAM role ARN, arn:aws:iam::<12-digit account>:role/<name>');
  if (hasRole && request.provider !== 's3')
    throw invalidRequest('role_arn: a role is for provider s3 (AWS); R2 takes an access key pair');
  if (hasRole && request.endpoint !== undefined)
    throw invalidRequest('endpoint: a role reaches AWS S3 itself; leave endpoint out');
  if (request.provider === 'r2' && request.endpoint === undefined)
    throw invalidRequest('endpoint: R2 needs https://<account id>.r2.cloudflarestorage.com');
  const endpoint = request.endpoint === undefined ? null : normalizeEndpoint(request.endpoint, options);
  return {
    provider: request.provider,
    bucket: request.bucket,
    region: regionOf(request),
    endpoint,
    prefix: normalizePrefix(request.prefix),
    auth: hasRole ? 'role' : 'keys',
    roleArn: request.roleArn ?? null,
    accessKeyId: request.accessKeyId ?? null,
    secretAccessKey: request.secretAccessKey ?? null,
  };
}

function regionOf(request: BucketRequest): string {
  if (request.provider === 'r2') {
    if (
      request.region === undefined ||
      request.region === '' ||
      request.region === R2_REGION ||
      request.region === 'us-east-1'
    )
      return R2_REGION;
    throw invalidRequest('region: R2 takes "auto" (or leave it out)');
  }
  // Empty is R2's alias only: to S3 it names no region, and the probe could only fail to connect.
  if (request.region === '') throw invalidRequest('region: must be a region name such as eu-west-1 (or leave it out)');
  return request.region ?? DEFAULT_S3_REGION;
}

/** An https origin, nothing more (no credentials, path, query or fragment). */
function normalizeEndpoint(raw: string, options: { allowPrivateEndpoints: boolean }): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidRequest('endpoint: not a URL; expected https://host[:port]');
  }
  const plainToLoopback = url.protocol === 'http:' && options.allowPrivateEndpoints && LOOPBACK_HOST.test(url.hostname);
  if (url.protocol !== 'https:' && !plainToLoopback) throw invalidRequest('endpoint: must use https');
  if (url.username || url.password) throw invalidRequest('endpoint: must not carry credentials');
  if (url.search || url.hash || (url.pathname !== '/' && url.pathname !== ''))
    throw invalidRequest('endpoint: must be an origin only (https://host[:port]), no path or query');
  return url.origin;
}

/** '' or a relative path ending in '/'; default `library/`. */
function normalizePrefix(raw: string | undefined): string {
  if (raw === undefined) return DEFAULT_PREFIX;
  if (raw === '' || raw === '/') return '';
  if (raw.startsWith('/')) throw invalidRequest('prefix: must not start with "/"');
  const trimmed = raw.endsWith('/') ? raw.slice(0, -1) : raw;
  const segments = trimmed.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..'))
    throw invalidRequest('prefix: no empty, "." or ".." path segments');
  return `${trimmed}/`;
}

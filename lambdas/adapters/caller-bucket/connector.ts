import { createHash } from 'node:crypto';
import { S3Client } from '@aws-sdk/client-s3';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { BucketError } from '../../core/errors.js';
import type { BlobStore, BucketAccess, BucketConnector } from '../../core/ports.js';
import { type EndpointRefusal, guardedHttpAgent, guardedHttpsAgent } from './endpoint-guard.js';
import type { RoleCredentialsSource, RoleTarget } from './role-credentials.js';
import { S3CallerBlobStore } from './s3-caller-blob-store.js';

export interface S3BucketConnectorOptions {
  /** Local stack only, the operator's choice: private and loopback endpoints (and http to them). Never on AWS. */
  allowPrivateEndpoints?: boolean;
  /** Session credentials for customers' roles; absent: a role registration fails at its first step. */
  roleCredentials?: RoleCredentialsSource;
  /**
   * Told each connection the address guard refuses, with the host, the
   * address and why: for the operator's log. The caller only ever reads a
   * generic refusal (classify.ts).
   */
  onForbiddenEndpoint?: (refusal: EndpointRefusal) => void;
}

/**
 * Short timeouts and one retry: a capture waits on these calls, and a probe
 * step that stalls must answer 422 within the API's 29 s, not time out.
 */
const CONNECTION_TIMEOUT_MS = 3_000;
const REQUEST_TIMEOUT_MS = 8_000;

/**
 * Reaches callers' buckets over the S3 API: AWS S3, R2, MinIO, any
 * S3-compatible store. One client per tenant and access, kept until the
 * tenant's registration changes (forget) or the bucket refuses a role's
 * session (then a fresh session and client are tried once). Settings every
 * S3-compatible store takes: path-style addressing with a custom endpoint,
 * checksums only where an operation requires them (R2 refused the SDK's
 * default CRC32 headers), ExpectedBucketOwner on AWS only. Connections go
 * through the SSRF guard's agents.
 */
export class S3BucketConnector implements BucketConnector {
  private readonly clients = new Map<string, { tenantId: string; client: S3Client }>();
  private readonly handler: NodeHttpHandler;

  constructor(private readonly options: S3BucketConnectorOptions = {}) {
    const guard = { allowPrivate: options.allowPrivateEndpoints === true, onRefused: options.onForbiddenEndpoint };
    this.handler = new NodeHttpHandler({
      httpsAgent: guardedHttpsAgent(guard),
      httpAgent: guardedHttpAgent(guard),
      connectionTimeout: CONNECTION_TIMEOUT_MS,
      requestTimeout: REQUEST_TIMEOUT_MS,
    });
  }

  open(access: BucketAccess): BlobStore {
    const key = fingerprint(access);
    const role =
      access.auth.kind === 'role'
        ? { tenantId: access.tenantId, roleArn: access.auth.roleArn, externalId: access.auth.externalId }
        : null;
    const client = () => {
      let entry = this.clients.get(key);
      if (!entry) {
        entry = { tenantId: access.tenantId, client: this.newClient(access, role) };
        this.clients.set(key, entry);
      }
      return entry.client;
    };
    const onDenied = () => {
      if (!role) return false;
      this.options.roleCredentials?.drop(role);
      this.dropClient(key);
      return true;
    };
    const expectedBucketOwner =
      role && access.provider === 's3' && access.endpoint === null ? role.roleArn.split(':')[4] : undefined;
    return new S3CallerBlobStore(client, access.bucket, { expectedBucketOwner, onDenied });
  }

  forget(tenantId: string): void {
    for (const [key, entry] of this.clients) if (entry.tenantId === tenantId) this.dropClient(key);
    this.options.roleCredentials?.forget(tenantId);
  }

  private dropClient(key: string): void {
    this.clients.get(key)?.client.destroy();
    this.clients.delete(key);
  }

  private newClient(access: BucketAccess, role: RoleTarget | null): S3Client {
    const roles = this.options.roleCredentials;
    const credentials =
      access.auth.kind === 'keys'
        ? { accessKeyId: access.auth.accessKeyId, secretAccessKey: access.auth.secretAccessKey }
        : () => {
            if (!roles)
              return Promise.reject(
                new BucketError('denied', 'this deployment has no AWS identity to assume roles with', 'assume_role'),
              );
            return roles.credentials(role!);
          };
    return new S3Client({
      region: access.region,
      ...(access.endpoint ? { endpoint: access.endpoint, forcePathStyle: true } : {}),
      credentials,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 2,
      requestHandler: this.handler,
    });
  }
}

/** The client cache's key: who and how, the secret hashed (never kept as a key in clear). */
function fingerprint(access: BucketAccess): string {
  return createHash('sha256').update(JSON.stringify(access)).digest('hex');
}

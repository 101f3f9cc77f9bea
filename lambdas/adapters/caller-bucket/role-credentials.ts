import { STSClient } from '@aws-sdk/client-sts';
import { BackendUnavailableError, BucketError } from '../../core/errors.js';
import { AssumedRoles, type RoleCredentials } from './assumed-roles.js';
import { classifyBucketError } from './classify.js';
import { tenantSessionName } from './session-name.js';

/** The customer role one tenant registered, and the external id its trust policy demands. */
export interface RoleTarget {
  tenantId: string;
  roleArn: string;
  externalId: string;
}

/** Session credentials for customers' roles, as the bucket connector asks for them. */
export interface RoleCredentialsSource {
  /** Cached per tenant+role+external id; throws BucketError(…, 'assume_role') when STS refuses or cannot be reached. */
  credentials(target: RoleTarget): Promise<RoleCredentials>;
  /** The bucket refused these credentials: forget them, so the next call assumes the role again. */
  drop(target: RoleTarget): void;
  /** Forgets every session of the tenant (it unregistered or replaced its bucket). */
  forget(tenantId: string): void;
}

/** A provider of the credentials STS calls are signed with. */
export type CredentialsProvider = () => Promise<{
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  expiration?: Date;
}>;

/**
 * Short timeouts and one retry: a capture or a registration's probe waits on
 * these calls, two hops of them on AWS, within API Gateway's 29 seconds.
 */
const STS_CLIENT_SETTINGS = {
  maxAttempts: 2,
  requestHandler: { connectionTimeout: 2_000, requestTimeout: 4_000 },
} as const;

export interface StsRoleCredentialsOptions {
  region: string;
  /** Who calls AssumeRole on the customer's role: the dedicated role's session on AWS, the machine's identity locally. */
  caller: CredentialsProvider;
  /** Injected by tests (clock); the session length is STS's one-hour cap on chained sessions. */
  now?: () => number;
}

/**
 * AssumeRole on the customer's role with the tenant's external id, a session
 * named for the tenant and one hour long, signed by `caller`. Sessions are
 * cached (AssumedRoles) and renewed five minutes before they end. A refusal becomes BucketError `denied` and an outage `unreachable`,
 * both `during: 'assume_role'`; a failure of the caller's own credentials is
 * the service's (BackendUnavailableError), never blamed on the customer.
 */
export class StsRoleCredentials implements RoleCredentialsSource {
  private readonly roles: AssumedRoles;

  constructor(options: StsRoleCredentialsOptions) {
    const sts = new STSClient({ region: options.region, credentials: options.caller, ...STS_CLIENT_SETTINGS });
    this.roles = new AssumedRoles({ sts, now: options.now });
  }

  async credentials(target: RoleTarget): Promise<RoleCredentials> {
    try {
      return await this.roles.credentials(request(target));
    } catch (error) {
      if (error instanceof BackendUnavailableError || error instanceof BucketError) throw error;
      // Refused (AccessDenied: the trust policy, the external id, no such role) is `denied`; no answer is `unreachable`.
      throw classifyBucketError(error, 'assume_role');
    }
  }

  drop(target: RoleTarget): void {
    this.roles.drop(request(target));
  }

  forget(tenantId: string): void {
    this.roles.dropSession(tenantSessionName(tenantId));
  }
}

const request = (t: RoleTarget) => ({
  roleArn: t.roleArn,
  externalId: t.externalId,
  sessionName: tenantSessionName(t.tenantId),
});

/**
 * The AWS stack's caller: the function's own role assumes the stack's
 * dedicated bucket-access role (the principal customers trust), whose session
 * then assumes customers' roles. Its session is cached like theirs; a failure
 * to get it is the service's own (BackendUnavailableError, retryable).
 */
export function dedicatedRoleCaller(options: {
  region: string;
  functionCredentials: CredentialsProvider;
  roleArn: string;
  sessionName: string;
  now?: () => number;
}): CredentialsProvider {
  const sts = new STSClient({
    region: options.region,
    credentials: options.functionCredentials,
    ...STS_CLIENT_SETTINGS,
  });
  const roles = new AssumedRoles({ sts, now: options.now });
  const session = { roleArn: options.roleArn, sessionName: options.sessionName };
  return async () => {
    try {
      return await roles.credentials(session);
    } catch (error) {
      throw new BackendUnavailableError(
        `could not assume the bucket-access role: ${(error as Error).name ?? 'error'}`,
        2,
        { cause: error },
      );
    }
  };
}

import { AssumeRoleCommand, type STSClient } from '@aws-sdk/client-sts';
import { roleSessionName } from './session-name.js';

/** Temporary credentials of one role session. */
export interface RoleCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  expiration: Date;
}

/** Which role to assume, as whom, with which external id (none for the stack's own dedicated role). */
export interface RoleSessionRequest {
  roleArn: string;
  sessionName: string;
  externalId?: string;
}

export interface AssumedRolesOptions {
  /** The STS client whose credentials make the AssumeRole calls (the caller of this hop). */
  sts: Pick<STSClient, 'send'>;
  /** STS caps a chained session at one hour; longer is refused. */
  sessionSeconds?: number;
  /** Credentials this close to expiry are renewed before use (the SDK's own margin). */
  refreshMarginMs?: number;
  now?: () => number;
}

/**
 * AssumeRole, cached per (role, session name, external id) for the life of
 * the instance (the wiring keeps one per Lambda environment): a session is reused until it is within
 * `refreshMarginMs` of expiring; concurrent callers of an expired or missing
 * session share one STS call; a failed call caches nothing, and `drop` forgets
 * a session at once (the bucket refused it: a role deleted and recreated
 * works again on the next call instead of after the session's hour).
 */
export class AssumedRoles {
  private readonly sessions = new Map<string, Promise<RoleCredentials>>();
  private readonly sessionSeconds: number;
  private readonly refreshMarginMs: number;
  private readonly now: () => number;

  constructor(private readonly options: AssumedRolesOptions) {
    this.sessionSeconds = options.sessionSeconds ?? 3600;
    this.refreshMarginMs = options.refreshMarginMs ?? 5 * 60_000;
    this.now = options.now ?? Date.now;
  }

  async credentials(request: RoleSessionRequest): Promise<RoleCredentials> {
    const key = cacheKey(request);
    const cached = this.sessions.get(key);
    if (cached) {
      // A session still being fetched is shared; a settled one is reused while fresh.
      const credentials = await cached.catch(() => null);
      if (credentials && credentials.expiration.getTime() - this.now() > this.refreshMarginMs) return credentials;
      if (this.sessions.get(key) !== cached) return this.credentials(request);
    }
    const fetching = this.assume(request);
    this.sessions.set(key, fetching);
    fetching.catch(() => {
      if (this.sessions.get(key) === fetching) this.sessions.delete(key);
    });
    return fetching;
  }

  /** Forgets the session of this request (its credentials were refused). */
  drop(request: RoleSessionRequest): void {
    this.sessions.delete(cacheKey(request));
  }

  /** Forgets every session of this name, whatever its role (a tenant unregistered or replaced its bucket). */
  dropSession(sessionName: string): void {
    const name = roleSessionName(sessionName);
    for (const key of [...this.sessions.keys()])
      if ((JSON.parse(key) as string[])[1] === name) this.sessions.delete(key);
  }

  private async assume(request: RoleSessionRequest): Promise<RoleCredentials> {
    const result = await this.options.sts.send(
      new AssumeRoleCommand({
        RoleArn: request.roleArn,
        RoleSessionName: roleSessionName(request.sessionName),
        DurationSeconds: this.sessionSeconds,
        ...(request.externalId !== undefined ? { ExternalId: request.externalId } : {}),
      }),
    );
    const c = result.Credentials;
    if (!c?.AccessKeyId || !c.SecretAccessKey || !c.SessionToken || !c.Expiration) {
      throw Object.assign(new Error('STS answered AssumeRole without credentials'), { name: 'IncompleteCredentials' });
    }
    return {
      accessKeyId: c.AccessKeyId,
      secretAccessKey: c.SecretAccessKey,
      sessionToken: c.SessionToken,
      expiration: new Date(c.Expiration),
    };
  }
}

const cacheKey = (r: RoleSessionRequest) =>
  JSON.stringify([r.roleArn, roleSessionName(r.sessionName), r.externalId ?? null]);

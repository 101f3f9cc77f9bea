import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import type { BucketPrincipal } from '../../core/ports.js';
import type { CredentialsProvider } from '../caller-bucket/role-credentials.js';

/**
 * The IAM principal a trust policy can name for the identity STS reports
 * (GetCallerIdentity's `Arn`), or null when there is none that could call
 * AssumeRole:
 * - `arn:aws:sts::ACCT:assumed-role/ROLE/SESSION` → `arn:aws:iam::ACCT:role/ROLE`.
 *   A role created with a path (`arn:aws:iam::ACCT:role/some/path/ROLE`, and
 *   every IAM Identity Center role, under `/aws-reserved/sso.amazonaws.com/`)
 *   cannot be recovered: the STS ARN carries the role's name, not its path,
 *   and IAM refuses a trust policy naming a role that does not exist. Such an
 *   operator sets LIBRARY_BUCKET_PRINCIPAL_ARN to the role's full ARN; for
 *   Identity Center roles (`AWSReservedSSO_*`, always path-qualified) this
 *   answers null rather than an ARN known to be wrong.
 * - `arn:aws:iam::ACCT:user/NAME` (a path included) is kept as it is.
 * - The account root and federated users (GetFederationToken) are null: STS
 *   refuses AssumeRole to both, and a root principal would trust the whole account.
 * The partition (`aws`, `aws-cn`, `aws-us-gov`) is kept.
 */
export function principalOfCaller(callerArn: string): string | null {
  const assumed = /^arn:(aws[a-z-]*):sts::(\d{12}):assumed-role\/([\w+=,.@-]+)\/[\w+=,.@-]+$/.exec(callerArn);
  if (assumed) {
    const [, partition, account, role] = assumed;
    if (role!.startsWith('AWSReservedSSO_')) return null;
    return `arn:${partition}:iam::${account}:role/${role}`;
  }
  if (/^arn:aws[a-z-]*:iam::\d{12}:user\/(?:[\w+=,.@-]+\/)*[\w+=,.@-]+$/.test(callerArn)) return callerArn;
  return null;
}

export interface MachineBucketPrincipalOptions {
  /** LIBRARY_BUCKET_PRINCIPAL_ARN: wins, and nothing is asked of AWS. */
  configuredArn: string | null;
  /** The machine's AWS credentials (the default Node chain): the same ones role sessions are signed with. */
  credentials: CredentialsProvider;
  /** The region of the STS call (AWS_REGION); default us-east-1. */
  region?: string;
  /** The whole resolution (credentials, then STS) gives up after this long; default 5 s. */
  timeoutMs?: number;
  /** Told once what was resolved, or why nothing was (never a credential). */
  log?: (message: string, detail: Record<string, unknown>) => void;
}

/** A short STS call: one attempt, 1 s to connect, 3 s to answer. */
const STS_SETTINGS = { maxAttempts: 1, requestHandler: { connectionTimeout: 1_000, requestTimeout: 3_000 } } as const;

/**
 * The local stack's principal for trust policies (docs/bucket.md, "Local
 * stack"), in order: the ARN the operator configures; else the identity the
 * machine's AWS credentials resolve to (STS GetCallerIdentity, made only once
 * the credential chain has produced credentials, so a machine without any
 * never calls STS), converted by `principalOfCaller`; else none (null: role
 * registration is off here, keys still work).
 *
 * Resolved once, lazily (the first trust-policy request or role registration,
 * never at start), and cached for the life of the process, a failure or a
 * timeout included: no request waits on it twice. A machine whose
 * credentials change restarts the service to be seen again.
 */
export class MachineBucketPrincipal implements BucketPrincipal {
  private resolved: Promise<string | null> | undefined;

  constructor(private readonly options: MachineBucketPrincipalOptions) {}

  principalArn(): Promise<string | null> {
    this.resolved ??= this.resolve();
    return this.resolved;
  }

  private async resolve(): Promise<string | null> {
    const { configuredArn, log } = this.options;
    if (configuredArn) return configuredArn;
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeoutMs = this.options.timeoutMs ?? 5_000;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { name: 'TimeoutError' }));
      }, timeoutMs);
      timer.unref();
    });
    try {
      const callerArn = await Promise.race([this.callerArn(controller.signal), timedOut]);
      const principal = principalOfCaller(callerArn);
      if (principal) {
        log?.("bucket principal: the identity of this machine's AWS credentials", { principal });
      } else {
        log?.(
          "no bucket principal: this machine's AWS identity cannot be named in a trust policy (set LIBRARY_BUCKET_PRINCIPAL_ARN); role registration is off",
          { caller: callerArn },
        );
      }
      return principal;
    } catch (error) {
      log?.('no bucket principal: no usable AWS credentials on this machine; role registration is off', {
        reason: (error as Error)?.name ?? 'Error',
      });
      return null;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Credentials first: only when the chain produced some is STS asked who they are. */
  private async callerArn(signal: AbortSignal): Promise<string> {
    const credentials = await this.options.credentials();
    if (signal.aborted) throw new Error('aborted');
    const sts = new STSClient({ region: this.options.region ?? 'us-east-1', credentials, ...STS_SETTINGS });
    try {
      const identity = await sts.send(new GetCallerIdentityCommand({}), { abortSignal: signal });
      if (!identity.Arn) throw Object.assign(new Error('GetCallerIdentity named no ARN'), { name: 'NoCallerArn' });
      return identity.Arn;
    } finally {
      sts.destroy();
    }
  }
}

import type { BucketPrincipal } from '../../core/ports.js';

/**
 * A fixed principal for trust policies (null: role registration is off): on
 * AWS the stack's dedicated access role (lambdas/wiring/aws/buckets.ts), and
 * in tests. The local stack resolves its own with MachineBucketPrincipal
 * (LIBRARY_BUCKET_PRINCIPAL_ARN, else the machine's AWS identity).
 */
export class ConfiguredBucketPrincipal implements BucketPrincipal {
  constructor(private readonly arn: string | null) {}

  async principalArn(): Promise<string | null> {
    return this.arn;
  }
}

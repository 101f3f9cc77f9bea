import type { BucketPrincipal } from '../../ports.js';

/**
 * The local stack's principal for trust policies: the ARN the operator
 * names (LIBRARY_BUCKET_PRINCIPAL_ARN: the IAM role or user whose
 * credentials this machine runs with). null: role registration is off here.
 */
export class ConfiguredBucketPrincipal implements BucketPrincipal {
  constructor(private readonly arn: string | null) {}

  async principalArn(): Promise<string | null> {
    return this.arn;
  }
}

import type { RemovalPolicy } from 'aws-cdk-lib';
import * as kms from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';

export interface EndUserLogKeyProps {
  readonly removalPolicy: RemovalPolicy;
}

/**
 * The per-deployment secret behind the names logs give end users: a KMS HMAC
 * key (HMAC_256, GENERATE_VERIFY_MAC). The functions that log end users
 * derive their HMAC key from it once per environment (GenerateMac of a fixed
 * label: lambdas/wiring/aws/end-user-log-key.ts); its material never leaves
 * KMS. Kept with the data so the names stay the same across API deploys.
 * HMAC keys have no automatic rotation; a new key (or label) names end users
 * anew, which is harmless (older lines simply stop matching newer ones).
 */
export class EndUserLogKey extends Construct {
  readonly key: kms.Key;

  constructor(scope: Construct, id: string, props: EndUserLogKeyProps) {
    super(scope, id);
    this.key = new kms.Key(this, 'Key', {
      description: 'Library: the secret end users are named with in logs (HMAC)',
      keySpec: kms.KeySpec.HMAC_256,
      keyUsage: kms.KeyUsage.GENERATE_VERIFY_MAC,
      removalPolicy: props.removalPolicy,
    });
    (this.key.node.defaultChild as kms.CfnKey).overrideLogicalId('EndUserLogKey');
  }
}

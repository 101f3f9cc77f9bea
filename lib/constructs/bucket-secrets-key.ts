import type { RemovalPolicy } from 'aws-cdk-lib';
import * as kms from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';

export interface BucketSecretsKeyProps {
  readonly removalPolicy: RemovalPolicy;
}

/** The customer managed KMS key that encrypts tenants' caller-bucket secrets (access keys) at rest; rotated yearly. */
export class BucketSecretsKey extends Construct {
  readonly key: kms.Key;

  constructor(scope: Construct, id: string, props: BucketSecretsKeyProps) {
    super(scope, id);
    this.key = new kms.Key(this, 'Key', {
      description: 'Library: encrypts caller-bucket secrets',
      enableKeyRotation: true,
      removalPolicy: props.removalPolicy,
    });
    (this.key.node.defaultChild as kms.CfnKey).overrideLogicalId('BucketSecretsKey');
  }
}

import { Stack, Token, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { TENANT_SESSION_PREFIX } from '../../lambdas/adapters/caller-bucket/session-name.js';

export interface CallerBucketAccessProps {
  /** The function roles that reach callers' buckets: the only principals the dedicated role trusts. */
  readonly trustedRoles: readonly iam.IRole[];
}

/**
 * The deployment's one principal for callers' buckets (the
 * `service_principal_arn` of GET /v1/bucket/trust-policy): customers' roles
 * trust this role, with their external id. Only the functions that read,
 * write or delete caller blobs may assume it (its trust names their roles),
 * and all it may do is assume other roles, only with an external id and a
 * session named for a tenant. It lives as long as this stack: its logical id
 * is pinned, since a role replaced (even under the same name) no longer
 * matches the customers' trust policies.
 */
export class CallerBucketAccess extends Construct {
  readonly role: iam.Role;

  constructor(scope: Construct, id: string, props: CallerBucketAccessProps) {
    super(scope, id);
    if (!props.trustedRoles.length) throw new Error('CallerBucketAccess: no function role to trust');
    this.role = new iam.Role(this, 'Role', {
      description:
        "Library: the principal customers' bucket roles trust (with their external id); assumed by the functions that reach callers' buckets",
      assumedBy: new iam.CompositePrincipal(...props.trustedRoles.map((r) => new iam.ArnPrincipal(r.roleArn))),
    });
    (this.role.node.defaultChild as iam.CfnRole).overrideLogicalId('CallerBucketAccessRole');
    const partition = Stack.of(this).partition;
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'AssumeCustomerRolesWithExternalId',
        actions: ['sts:AssumeRole'],
        resources: [`arn:${partition}:iam::*:role/*`],
        conditions: {
          // No external id, no call: the confused-deputy guard customers' trust policies rely on.
          Null: { 'sts:ExternalId': 'false' },
          StringLike: { 'sts:RoleSessionName': `${TENANT_SESSION_PREFIX}*` },
        },
      }),
    );
    Validations.of(this.role).acknowledge({
      // cdk-nag names the resource as synthesized: the partition a token, or a literal once the region is known.
      id: `AwsSolutions-IAM5[Resource::arn:${Token.isUnresolved(partition) ? '<AWS::Partition>' : partition}:iam::*:role/*]`,
      reason:
        "Customers' roles live in their own accounts and are registered at run time; AssumeRole is allowed on them only with an external id present (Null sts:ExternalId false) and a session named for a tenant.",
    });
  }

  /** Lets a function assume the dedicated role (its trust already names the function's role). */
  grantAssume(grantee: iam.IGrantable): void {
    grantee.grantPrincipal.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['sts:AssumeRole'], resources: [this.role.roleArn] }),
    );
  }
}

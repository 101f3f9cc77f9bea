import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as opensearch from 'aws-cdk-lib/aws-opensearchservice';
import { Construct } from 'constructs';

export interface SearchDomainProps {
  readonly instanceType: string;
  readonly instanceCount: number;
  readonly volumeGiB: number;
  readonly zoneAwareness: boolean;
  readonly removalPolicy: RemovalPolicy;
  readonly logRetentionDays: number;
}

/**
 * The OpenSearch Service domain holding the k-NN (faiss HNSW), BM25 and
 * wildcard indices. Encrypted at rest and node to node, HTTPS only (TLS 1.2),
 * reached with SigV4: the domain policy admits this account's IAM principals
 * and each function's own IAM policy names the HTTP verbs it may use.
 */
export class SearchDomain extends Construct {
  readonly domain: opensearch.Domain;

  constructor(scope: Construct, id: string, props: SearchDomainProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const slowSearch = new logs.LogGroup(this, 'SlowSearchLogs', {
      retention: props.logRetentionDays as logs.RetentionDays,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const slowIndex = new logs.LogGroup(this, 'SlowIndexLogs', {
      retention: props.logRetentionDays as logs.RetentionDays,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const logDelivery = new logs.ResourcePolicy(this, 'LogDelivery', {
      policyStatements: [
        new iam.PolicyStatement({
          principals: [new iam.ServicePrincipal('es.amazonaws.com')],
          actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          resources: [slowSearch.logGroupArn, slowIndex.logGroupArn],
          conditions: { StringEquals: { 'aws:SourceAccount': stack.account } },
        }),
      ],
    });
    this.domain = new opensearch.Domain(this, 'Domain', {
      version: opensearch.EngineVersion.OPENSEARCH_2_19,
      capacity: {
        dataNodes: props.instanceCount,
        dataNodeInstanceType: props.instanceType,
        multiAzWithStandbyEnabled: false,
      },
      ebs: { enabled: true, volumeSize: props.volumeGiB, volumeType: ec2.EbsDeviceVolumeType.GP3 },
      zoneAwareness: props.zoneAwareness ? { enabled: true, availabilityZoneCount: 2 } : { enabled: false },
      encryptionAtRest: { enabled: true },
      nodeToNodeEncryption: true,
      enforceHttps: true,
      tlsSecurityPolicy: opensearch.TLSSecurityPolicy.TLS_1_2,
      removalPolicy: props.removalPolicy,
      logging: {
        slowSearchLogEnabled: true,
        slowSearchLogGroup: slowSearch,
        slowIndexLogEnabled: true,
        slowIndexLogGroup: slowIndex,
      },
      // The log delivery policy is the plain resource below, not the construct's custom resource.
      suppressLogsResourcePolicy: true,
    });
    // The domain checks, when it is created, that it may write its slow logs.
    this.domain.node.addDependency(logDelivery);
    const cfn = this.domain.node.defaultChild as opensearch.CfnDomain;
    cfn.overrideLogicalId('SearchDomain');
    // Set on the resource itself (not through the construct's custom resource): this account's principals, by IAM.
    cfn.accessPolicies = new iam.PolicyDocument({
      statements: [
        new iam.PolicyStatement({
          effect: iam.Effect.ALLOW,
          principals: [new iam.AccountRootPrincipal()],
          actions: ['es:ESHttp*'],
          resources: [`arn:${stack.partition}:es:${stack.region}:${stack.account}:domain/*`],
        }),
      ],
    }).toJSON();
  }
}

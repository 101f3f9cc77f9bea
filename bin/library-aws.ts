/**
 * The operator's command for a deployed stack: `npm run aws:keys -- create --tenant NAME`.
 * Same verbs as `library keys` (create, list, rotate, revoke), against the
 * stack's DynamoDB tenants table, and each key registered in (or removed from)
 * the API's usage plan. Uses the AWS credentials and region of the shell
 * (AWS_PROFILE, AWS_REGION); the stack is `Library-Api` unless --stack says.
 */
import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { parseArgs } from 'node:util';
import { DynamoTenantStore } from '../lambdas/adapters/aws/dynamo-tenant-store.js';
import { UsagePlanKeys } from '../lambdas/adapters/aws/usage-plan-keys.js';
import { systemClock } from '../lambdas/core/dates.js';
import { hashKey, KeyService, type IssuedKey } from '../lambdas/core/keys.js';

const USAGE = `usage: npm run aws:keys -- <command> [--stack Library-Api]
  create --tenant NAME     create the tenant if new, and a key for it (shown once)
  list                     every key (prefix, tenant, state); never the secret
  rotate --tenant NAME     a new key for the tenant; its old keys stop working
  revoke --key KEY_ID      revoke one key
  revoke --tenant NAME     revoke every key of a tenant`;

async function stackOutputs(stack: string): Promise<Record<string, string>> {
  const result = await new CloudFormationClient({}).send(new DescribeStacksCommand({ StackName: stack }));
  const outputs = result.Stacks?.[0]?.Outputs ?? [];
  return Object.fromEntries(outputs.map((o) => [o.OutputKey ?? '', o.OutputValue ?? '']));
}

async function main(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { tenant: { type: 'string' }, key: { type: 'string' }, stack: { type: 'string', default: 'Library-Api' } },
  });
  const outputs = await stackOutputs(values.stack!);
  const table = outputs.TenantsTableName;
  const usagePlanId = outputs.UsagePlanId;
  if (!table || !usagePlanId) throw new Error(`stack ${values.stack} has no TenantsTableName/UsagePlanId outputs: deploy it first`);
  const tenants = new DynamoTenantStore(DynamoDBDocumentClient.from(new DynamoDBClient({})), table);
  const keys = new KeyService({ tenants, clock: systemClock() });
  const plan = new UsagePlanKeys(new APIGatewayClient({}), usagePlanId);
  const register = async (issued: IssuedKey) => {
    await plan.register({ keyId: issued.key_id, hash: hashKey(issued.api_key), tenantName: issued.tenant });
    console.log(JSON.stringify({ tenant_id: issued.tenant_id, key_id: issued.key_id, api_key: issued.api_key }));
  };

  switch (positionals[0]) {
    case 'create':
    case 'rotate': {
      if (!values.tenant) throw new Error(`${positionals[0]} needs --tenant NAME`);
      const before = (await keys.list()).filter((k) => k.tenantName === values.tenant && !k.revokedAt);
      const issued = positionals[0] === 'create' ? await keys.create(values.tenant) : await keys.rotate(values.tenant);
      await register(issued);
      if (positionals[0] === 'rotate') for (const old of before) await plan.remove(old.keyId);
      return;
    }
    case 'list':
      for (const k of await keys.list()) {
        console.log(JSON.stringify({ key_id: k.keyId, tenant: k.tenantName, tenant_id: k.tenantId, prefix: k.prefix, created_at: k.createdAt, revoked_at: k.revokedAt }));
      }
      return;
    case 'revoke': {
      if (values.key) {
        const revoked = await keys.revoke({ keyId: values.key });
        await plan.remove(values.key);
        console.log(JSON.stringify({ revoked }));
        return;
      }
      if (!values.tenant) throw new Error('revoke needs --key KEY_ID or --tenant NAME');
      const live = (await keys.list()).filter((k) => k.tenantName === values.tenant && !k.revokedAt);
      const revoked = await keys.revoke({ tenant: values.tenant });
      for (const k of live) await plan.remove(k.keyId);
      console.log(JSON.stringify({ revoked }));
      return;
    }
    default:
      throw new Error(USAGE);
  }
}

main(process.argv.slice(2)).catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});

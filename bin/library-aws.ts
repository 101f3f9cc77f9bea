/**
 * The operator's command for a deployed stack: `npm run aws:keys -- create --tenant NAME`.
 * Same verbs as `library keys` (create, list, rotate, revoke), against the
 * stack's DynamoDB tenants table, and each key registered in (or removed from)
 * the API's usage plan. Uses the AWS credentials and region of the shell
 * (AWS_PROFILE, AWS_REGION); the stack is `Library-Api` unless --stack says.
 */

import { parseArgs } from 'node:util';
import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoTenantStore } from '../lambdas/adapters/aws/dynamo-tenant-store.js';
import { UsagePlanKeys } from '../lambdas/adapters/aws/usage-plan-keys.js';
import { systemClock } from '../lambdas/core/dates.js';
import { hashKey, KeyService } from '../lambdas/core/keys.js';
import { runKeysCommand } from './keys-command.js';

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
  if (!table || !usagePlanId)
    throw new Error(`stack ${values.stack} has no TenantsTableName/UsagePlanId outputs: deploy it first`);
  const tenants = new DynamoTenantStore(DynamoDBDocumentClient.from(new DynamoDBClient({})), table);
  const keys = new KeyService({ tenants, clock: systemClock() });
  const plan = new UsagePlanKeys(new APIGatewayClient({}), usagePlanId);
  await runKeysCommand(
    positionals[0],
    values,
    keys,
    {
      show: (k) => ({ tenant_id: k.tenant_id, key_id: k.key_id, api_key: k.api_key }),
      issued: (k) => plan.register({ keyId: k.key_id, hash: hashKey(k.api_key), tenantName: k.tenant }),
      revoked: async (keyIds) => {
        for (const keyId of keyIds) await plan.remove(keyId);
      },
    },
    USAGE,
  );
}

main(process.argv.slice(2)).catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});

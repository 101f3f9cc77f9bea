import {
  APIGatewayClient,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  DeleteApiKeyCommand,
  GetApiKeysCommand,
} from '@aws-sdk/client-api-gateway';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { UsagePlanKeys } from '../../../lambdas/adapters/aws/usage-plan-keys.js';

const apigw = mockClient(APIGatewayClient);

describe('UsagePlanKeys (the per-key throttling entry of a Library key)', () => {
  beforeEach(() => apigw.reset());

  it('registers the key hash (never the key) as an API key in the usage plan', async () => {
    apigw.on(CreateApiKeyCommand).resolves({ id: 'apikey1' });
    apigw.on(CreateUsagePlanKeyCommand).resolves({});
    await new UsagePlanKeys(new APIGatewayClient({ region: 'eu-west-1' }), 'plan1').register({
      keyId: 'key_1',
      hash: 'h'.repeat(64),
      tenantName: 'acme',
    });
    expect(apigw.commandCalls(CreateApiKeyCommand)[0]!.args[0].input).toMatchObject({
      name: 'key_1',
      value: 'h'.repeat(64),
      enabled: true,
    });
    expect(apigw.commandCalls(CreateUsagePlanKeyCommand)[0]!.args[0].input).toEqual({
      usagePlanId: 'plan1',
      keyId: 'apikey1',
      keyType: 'API_KEY',
    });
  });

  it('removes exactly the API keys named after a Library key id', async () => {
    apigw.on(GetApiKeysCommand).resolves({
      items: [
        { id: 'a', name: 'key_1' },
        { id: 'b', name: 'key_10' },
      ],
    });
    apigw.on(DeleteApiKeyCommand).resolves({});
    expect(await new UsagePlanKeys(new APIGatewayClient({ region: 'eu-west-1' }), 'plan1').remove('key_1')).toBe(1);
    expect(apigw.commandCalls(DeleteApiKeyCommand).map((c) => c.args[0].input.apiKey)).toEqual(['a']);
  });
});

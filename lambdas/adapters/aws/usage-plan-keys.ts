import {
  type APIGatewayClient,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  DeleteApiKeyCommand,
  GetApiKeysCommand,
} from '@aws-sdk/client-api-gateway';

/**
 * API Gateway's side of a Library API key: an API Gateway API key whose value
 * is the key's SHA-256 (the authorizer returns the same hash as
 * usageIdentifierKey), attached to the usage plan that throttles it. The
 * secret itself never reaches API Gateway. Named after the Library key id.
 */
export class UsagePlanKeys {
  constructor(
    private readonly client: APIGatewayClient,
    private readonly usagePlanId: string,
  ) {}

  async register(key: { keyId: string; hash: string; tenantName: string }): Promise<void> {
    const created = await this.client.send(
      new CreateApiKeyCommand({
        name: key.keyId,
        value: key.hash,
        enabled: true,
        description: `Library key of tenant ${key.tenantName}`,
      }),
    );
    await this.client.send(
      new CreateUsagePlanKeyCommand({ usagePlanId: this.usagePlanId, keyId: created.id!, keyType: 'API_KEY' }),
    );
  }

  /** Deletes the API Gateway key of a Library key id (a revoked key then fails even a cached authorizer answer). */
  async remove(keyId: string): Promise<number> {
    const found = await this.client.send(new GetApiKeysCommand({ nameQuery: keyId, limit: 500 }));
    const matches = (found.items ?? []).filter((k) => k.name === keyId && k.id);
    for (const apiKey of matches) await this.client.send(new DeleteApiKeyCommand({ apiKey: apiKey.id! }));
    return matches.length;
  }
}

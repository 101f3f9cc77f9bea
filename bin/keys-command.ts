import type { IssuedKey, KeyService } from '../lambdas/core/keys.js';

/**
 * The verbs of the keys command (create, list, rotate, revoke), shared by
 * `library keys` (local SQLite) and `npm run aws:keys` (DynamoDB). Each key
 * line is one JSON object on stdout; hooks let the AWS command mirror keys
 * into the API's usage plan.
 */
export interface KeysCommandHooks {
  /** How an issued key is printed (its last line on stdout). */
  show(issued: IssuedKey): Record<string, string>;
  issued?(issued: IssuedKey): Promise<void>;
  revoked?(keyIds: readonly string[]): Promise<void>;
}

export async function runKeysCommand(
  verb: string | undefined,
  options: { tenant?: string; key?: string },
  keys: KeyService,
  hooks: KeysCommandHooks,
  usage: string,
): Promise<void> {
  const liveKeysOf = async (tenant: string) =>
    (await keys.list()).filter((k) => k.tenantName === tenant && !k.revokedAt).map((k) => k.keyId);

  switch (verb) {
    case 'create':
    case 'rotate': {
      if (!options.tenant) throw new Error(`keys ${verb} needs --tenant NAME`);
      const before = verb === 'rotate' ? await liveKeysOf(options.tenant) : [];
      const issued = verb === 'create' ? await keys.create(options.tenant) : await keys.rotate(options.tenant);
      await hooks.issued?.(issued);
      if (before.length) await hooks.revoked?.(before);
      console.log(JSON.stringify(hooks.show(issued)));
      return;
    }
    case 'list':
      for (const k of await keys.list()) {
        console.log(
          JSON.stringify({
            key_id: k.keyId,
            tenant: k.tenantName,
            tenant_id: k.tenantId,
            prefix: k.prefix,
            created_at: k.createdAt,
            revoked_at: k.revokedAt,
          }),
        );
      }
      return;
    case 'revoke': {
      if (!options.key && !options.tenant) throw new Error('keys revoke needs --key KEY_ID or --tenant NAME');
      const targets = options.key ? [options.key] : await liveKeysOf(options.tenant!);
      const revoked = await keys.revoke(options.key ? { keyId: options.key } : { tenant: options.tenant! });
      await hooks.revoked?.(targets);
      console.log(JSON.stringify({ revoked }));
      return;
    }
    default:
      throw new Error(usage);
  }
}

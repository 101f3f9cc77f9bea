import type { SecretCipher } from '../../ports.js';
import { callAws } from './errors.js';
import type { KmsClient } from './kms-client.js';

/** Marks a value sealed by this cipher (and its format), so a value from another cipher is refused by name. */
const PREFIX = 'kms1.';

/**
 * Secrets sealed with the stack's KMS key (lib/constructs/bucket-secrets-key.ts)
 * under the encryption context `{tenant_id}`: KMS refuses to open a value
 * with another tenant's context, so a sealed secret copied to another
 * tenant's row opens for nobody. Decrypt names the key, so a ciphertext made
 * under any other key is refused too. The stored value is `kms1.<base64>`.
 */
export class KmsSecretCipher implements SecretCipher {
  constructor(
    private readonly kms: Pick<KmsClient, 'encrypt' | 'decrypt'>,
    private readonly keyId: string,
  ) {}

  async seal(plaintext: string, context: { tenantId: string }): Promise<string> {
    const ciphertext = await callAws('secrets.seal', () =>
      this.kms.encrypt({ keyId: this.keyId, plaintext: new TextEncoder().encode(plaintext), context: { tenant_id: context.tenantId } }),
    );
    return PREFIX + Buffer.from(ciphertext).toString('base64');
  }

  async open(sealed: string, context: { tenantId: string }): Promise<string> {
    if (!sealed.startsWith(PREFIX)) throw new Error('not a value sealed with KMS by this service');
    const ciphertext = new Uint8Array(Buffer.from(sealed.slice(PREFIX.length), 'base64'));
    const plaintext = await callAws('secrets.open', () => this.kms.decrypt({ keyId: this.keyId, ciphertext, context: { tenant_id: context.tenantId } }));
    return new TextDecoder().decode(plaintext);
  }
}

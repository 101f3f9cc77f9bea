import { DecryptCommand, EncryptCommand, KMSClient, type KMSClientConfig } from '@aws-sdk/client-kms';
import type { SecretCipher } from '../../core/ports.js';
import { callAws } from './errors.js';

/** Marks a value sealed by this cipher (and its format), so a value from another cipher is refused by name. */
const PREFIX = 'kms1.';

/**
 * How the service's KMS client is made: the SDK's own retry strategy
 * (standard mode, 3 attempts) absorbs short throttles and faults, and a call
 * that gets no answer in 5 seconds fails (then counts as unavailable).
 */
const KMS_CLIENT_SETTINGS = {
  maxAttempts: 3,
  requestHandler: { connectionTimeout: 2_000, requestTimeout: 5_000 },
} as const;

/** The KMS client the cipher is wired with (lambdas/wiring/aws/buckets.ts). */
export function kmsClient(options: { region: string; credentials?: KMSClientConfig['credentials'] }): KMSClient {
  return new KMSClient({ region: options.region, credentials: options.credentials, ...KMS_CLIENT_SETTINGS });
}

/**
 * Secrets sealed with the stack's KMS key (lib/constructs/bucket-secrets-key.ts)
 * under the encryption context `{tenant_id}`: KMS refuses to open a value
 * with another tenant's context, so a sealed secret copied to another
 * tenant's row opens for nobody. Decrypt names the key, so a ciphertext made
 * under any other key is refused too. The stored value is `kms1.<base64>`.
 * A throttle, a fault or no answer (after the SDK's retries) becomes
 * BackendUnavailableError (errors.ts); a refusal (InvalidCiphertextException,
 * AccessDeniedException, …) is rethrown as KMS named it. No error carries the
 * plaintext: it is only ever in the Encrypt request and the Decrypt answer.
 */
export class KmsSecretCipher implements SecretCipher {
  constructor(
    private readonly kms: Pick<KMSClient, 'send'>,
    private readonly keyId: string,
  ) {}

  async seal(plaintext: string, context: { tenantId: string }): Promise<string> {
    const out = await callAws('secrets.seal', () =>
      this.kms.send(
        new EncryptCommand({
          KeyId: this.keyId,
          Plaintext: new TextEncoder().encode(plaintext),
          EncryptionContext: { tenant_id: context.tenantId },
        }),
      ),
    );
    if (!out.CiphertextBlob?.byteLength) throw new Error('KMS answered Encrypt without a ciphertext');
    return PREFIX + Buffer.from(out.CiphertextBlob).toString('base64');
  }

  async open(sealed: string, context: { tenantId: string }): Promise<string> {
    if (!sealed.startsWith(PREFIX)) throw new Error('not a value sealed with KMS by this service');
    const ciphertext = new Uint8Array(Buffer.from(sealed.slice(PREFIX.length), 'base64'));
    const out = await callAws('secrets.open', () =>
      this.kms.send(
        new DecryptCommand({
          KeyId: this.keyId,
          CiphertextBlob: ciphertext,
          EncryptionContext: { tenant_id: context.tenantId },
        }),
      ),
    );
    if (!out.Plaintext) throw new Error('KMS answered Decrypt without a plaintext');
    return new TextDecoder().decode(out.Plaintext);
  }
}

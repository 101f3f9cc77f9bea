import { GenerateMacCommand, type KMSClient } from '@aws-sdk/client-kms';
import { callAws } from './errors.js';

/**
 * A secret derived from a KMS HMAC key (KeySpec HMAC_256): the MAC of a fixed
 * label, HMAC-SHA-256. The same on every call and in every function that may
 * call GenerateMac on the key, and known to nobody who may not: the key's
 * material never leaves KMS, and the derived value lives only in the memory
 * of the function that asked. One call per Lambda environment.
 */
export async function deriveFromKmsMacKey(
  kms: Pick<KMSClient, 'send'>,
  keyId: string,
  label: string,
): Promise<Uint8Array> {
  const out = await callAws('kms.generateMac', () =>
    kms.send(
      new GenerateMacCommand({ KeyId: keyId, MacAlgorithm: 'HMAC_SHA_256', Message: new TextEncoder().encode(label) }),
    ),
  );
  if (!out.Mac || out.Mac.byteLength < 32) throw new Error('KMS answered GenerateMac without a 32-byte MAC');
  return out.Mac;
}

import { randomBytes } from 'node:crypto';
import {
  DecryptCommand,
  EncryptCommand,
  InvalidCiphertextException,
  KMSClient,
  KMSServiceException,
} from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { KmsSecretCipher, kmsClient } from '../../../lambdas/adapters/aws/kms-secret-cipher.js';
import { BackendUnavailableError } from '../../../lambdas/core/errors.js';

/**
 * The KMS secret cipher on the SDK's KMSClient, mocked with
 * aws-sdk-client-mock (reset before each test). The mock behaves like KMS
 * for what the cipher relies on: Encrypt keeps the plaintext with its key
 * and encryption context behind a random ciphertext; Decrypt answers it only
 * for the same ciphertext, key and context, and refuses anything else with
 * InvalidCiphertextException.
 */
const kms = mockClient(KMSClient);
const REGION = 'eu-west-1';
const KEY_ARN = 'arn:aws:kms:eu-west-1:111111111111:key/0f0f0f0f-1111-2222-3333-444444444444';
const OTHER_KEY = 'arn:aws:kms:eu-west-1:111111111111:key/99999999-1111-2222-3333-444444444444';
const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';

const vault = new Map<string, { plaintext: Uint8Array; keyId: string; context: string }>();
const contextOf = (context: Record<string, string> | undefined) => JSON.stringify(Object.entries(context ?? {}).sort());
const refused = () =>
  new InvalidCiphertextException({
    message:
      'The ciphertext refers to a customer master key that does not exist, or the encryption context does not match',
    $metadata: { httpStatusCode: 400 },
  });

function kmsLike() {
  kms.on(EncryptCommand).callsFake(async (input: EncryptCommand['input']) => {
    const blob = new Uint8Array(randomBytes(48));
    vault.set(Buffer.from(blob).toString('base64'), {
      plaintext: input.Plaintext!,
      keyId: input.KeyId!,
      context: contextOf(input.EncryptionContext),
    });
    return { CiphertextBlob: blob, KeyId: input.KeyId, EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' };
  });
  kms.on(DecryptCommand).callsFake(async (input: DecryptCommand['input']) => {
    const entry = vault.get(Buffer.from(input.CiphertextBlob!).toString('base64'));
    if (!entry || entry.keyId !== input.KeyId || entry.context !== contextOf(input.EncryptionContext)) throw refused();
    return { Plaintext: entry.plaintext, KeyId: entry.keyId, EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' };
  });
}

const cipher = (keyId = KEY_ARN) => new KmsSecretCipher(new KMSClient({ region: REGION }), keyId);
const failureOf = (p: Promise<unknown>) =>
  p.then(
    () => new Error('no failure'),
    (e: unknown) => e as Error,
  );
const throttled = () =>
  new KMSServiceException({
    name: 'ThrottlingException',
    $fault: 'client',
    message: 'Rate exceeded',
    $metadata: { httpStatusCode: 400 },
  });
/** What the SDK's node:http handler rejects with when nothing answers. */
const connectionRefused = () =>
  Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), {
    code: 'ECONNREFUSED',
    errno: -111,
    syscall: 'connect',
  });
const timedOut = () => Object.assign(new Error('Connection timed out after 5000 ms'), { name: 'TimeoutError' });

beforeEach(() => {
  kms.reset();
  vault.clear();
  kmsLike();
});
afterAll(() => kms.restore());

describe('KmsSecretCipher: the requests', () => {
  it('encrypts with the stack key under {tenant_id}, and stores neither the plaintext nor its base64', async () => {
    const sealed = await cipher().seal(SECRET, { tenantId: 'ten_acme' });
    const calls = kms.commandCalls(EncryptCommand);
    expect(calls).toHaveLength(1);
    const input = calls[0]!.args[0].input;
    expect(input.KeyId).toBe(KEY_ARN);
    expect(input.EncryptionContext).toEqual({ tenant_id: 'ten_acme' });
    expect(Buffer.from(input.Plaintext!).toString('utf8')).toBe(SECRET);
    expect(sealed).toMatch(/^kms1\.[A-Za-z0-9+/]+=*$/);
    expect(sealed).not.toContain(SECRET);
    expect(sealed).not.toContain(Buffer.from(SECRET).toString('base64'));
    // What is stored is the ciphertext KMS answered, nothing else.
    expect(vault.has(sealed.slice('kms1.'.length))).toBe(true);
  });

  it('decrypts with the stack key under the same {tenant_id}, and gets the secret back', async () => {
    const sealed = await cipher().seal(SECRET, { tenantId: 'ten_acme' });
    expect(await cipher().open(sealed, { tenantId: 'ten_acme' })).toBe(SECRET);
    const calls = kms.commandCalls(DecryptCommand);
    expect(calls).toHaveLength(1);
    const input = calls[0]!.args[0].input;
    expect(input.KeyId).toBe(KEY_ARN);
    expect(input.EncryptionContext).toEqual({ tenant_id: 'ten_acme' });
    expect(Buffer.from(input.CiphertextBlob!).toString('base64')).toBe(sealed.slice('kms1.'.length));
  });
});

describe('KmsSecretCipher: refusals', () => {
  it("refuses a value under another tenant's context as KMS named it (not as an outage), without echoing the value", async () => {
    const sealed = await cipher().seal(SECRET, { tenantId: 'ten_acme' });
    const failure = await failureOf(cipher().open(sealed, { tenantId: 'ten_other' }));
    expect(failure).toBeInstanceOf(InvalidCiphertextException);
    expect(failure).not.toBeInstanceOf(BackendUnavailableError);
    expect(kms.commandCalls(DecryptCommand)[0]!.args[0].input.EncryptionContext).toEqual({ tenant_id: 'ten_other' });
    expect(`${failure.message} ${String(failure.stack)}`).not.toContain(sealed.slice(5, 30));
    expect(`${failure.message} ${String(failure.stack)}`).not.toContain(SECRET);
  });

  it('refuses a value sealed under another key', async () => {
    const sealed = await cipher(OTHER_KEY).seal(SECRET, { tenantId: 'ten_acme' });
    await expect(cipher().open(sealed, { tenantId: 'ten_acme' })).rejects.toBeInstanceOf(InvalidCiphertextException);
  });

  it('refuses a value it did not seal by its prefix, without asking KMS', async () => {
    await expect(cipher().open('v1.aaaa.bbbb.cccc', { tenantId: 'ten_acme' })).rejects.toThrow(
      /not a value sealed with KMS/,
    );
    expect(kms.commandCalls(DecryptCommand)).toHaveLength(0);
  });
});

describe('KmsSecretCipher: KMS unavailable', () => {
  it.each([
    ['throttled (ThrottlingException)', throttled, 'ThrottlingException'],
    ['unreachable (ECONNREFUSED)', connectionRefused, 'Error'],
    ['no answer in time (TimeoutError)', timedOut, 'TimeoutError'],
  ])(
    'sealing while KMS is %s answers backend unavailable (retryable), never with the secret in the error',
    async (_what, error, name) => {
      kms.on(EncryptCommand).rejects(error());
      const failure = await failureOf(cipher().seal(SECRET, { tenantId: 'ten_acme' }));
      expect(failure).toBeInstanceOf(BackendUnavailableError);
      expect(failure.message).toBe(`secrets.seal: ${name}`);
      expect(`${failure.message} ${String(failure.stack)}`).not.toContain(SECRET);
      expect(`${failure.message} ${String(failure.stack)}`).not.toContain(Buffer.from(SECRET).toString('base64'));
    },
  );

  it('opening while KMS is throttled or unreachable answers backend unavailable too', async () => {
    const sealed = await cipher().seal(SECRET, { tenantId: 'ten_acme' });
    kms.on(DecryptCommand).rejectsOnce(throttled()).rejectsOnce(connectionRefused());
    await expect(cipher().open(sealed, { tenantId: 'ten_acme' })).rejects.toBeInstanceOf(BackendUnavailableError);
    await expect(cipher().open(sealed, { tenantId: 'ten_acme' })).rejects.toBeInstanceOf(BackendUnavailableError);
  });

  it('a refusal that is no outage (AccessDeniedException) is rethrown as it is', async () => {
    const denied = new KMSServiceException({
      name: 'AccessDeniedException',
      $fault: 'client',
      message: 'not authorized to perform kms:Encrypt',
      $metadata: { httpStatusCode: 400 },
    });
    kms.on(EncryptCommand).rejects(denied);
    const failure = await failureOf(cipher().seal(SECRET, { tenantId: 'ten_acme' }));
    expect(failure).toBe(denied);
    expect(failure).not.toBeInstanceOf(BackendUnavailableError);
  });
});

describe('kmsClient: the wired client', () => {
  it("retries with the SDK's standard strategy (3 attempts) and gives up on a silent KMS after 5 seconds", async () => {
    const client = kmsClient({
      region: REGION,
      credentials: { accessKeyId: 'ASIAFUNCTION', secretAccessKey: 'function-secret' },
    });
    expect(await client.config.region()).toBe(REGION);
    expect(await client.config.maxAttempts()).toBe(3);
    const retryMode = client.config.retryMode;
    expect(typeof retryMode === 'function' ? await retryMode() : retryMode).toBe('standard');
    const handlerConfig = await (
      client.config.requestHandler as unknown as { configProvider: Promise<{ requestTimeout?: number }> }
    ).configProvider;
    expect(handlerConfig.requestTimeout).toBe(5_000);
  });
});

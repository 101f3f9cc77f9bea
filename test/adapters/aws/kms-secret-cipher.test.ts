import { SignatureV4 } from '@smithy/signature-v4';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { KmsClient } from '../../../lambdas/adapters/aws/kms-client.js';
import { KmsSecretCipher } from '../../../lambdas/adapters/aws/kms-secret-cipher.js';
import { Sha256 } from '../../../lambdas/adapters/aws/sha256.js';
import { BackendUnavailableError } from '../../../lambdas/core/errors.js';

/**
 * The KMS secret cipher against a stand-in for KMS's JSON API on loopback:
 * it checks each request's SigV4 signature by signing it again with the same
 * credentials, keeps each plaintext with its key and encryption context
 * behind a random ciphertext, and refuses to decrypt under another context
 * or key, as KMS does.
 */
const REGION = 'eu-west-1';
const KEY_ARN = 'arn:aws:kms:eu-west-1:111111111111:key/0f0f0f0f-1111-2222-3333-444444444444';
const credentials = { accessKeyId: 'ASIAFUNCTION', secretAccessKey: 'function-secret', sessionToken: 'function-token' };
const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';

interface Call {
  target: string;
  body: Record<string, any>;
  signatureValid: boolean;
}

let server: Server;
let endpoint: string;
let calls: Call[] = [];
let throttle = false;
const vault = new Map<string, { plaintext: string; keyId: string; context: string }>();

async function signatureValid(request: IncomingMessage, body: string): Promise<boolean> {
  const amzDate = String(request.headers['x-amz-date']);
  const signingDate = new Date(amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
  const signer = new SignatureV4({ service: 'kms', region: REGION, credentials, sha256: Sha256 });
  const url = new URL(endpoint);
  const again = await signer.sign(
    {
      method: 'POST', protocol: 'http:', hostname: url.hostname, port: Number(url.port), path: '/', body,
      headers: { host: url.host, 'content-type': String(request.headers['content-type']), 'x-amz-target': String(request.headers['x-amz-target']) },
    },
    { signingDate },
  );
  return again.headers.authorization === request.headers.authorization && request.headers['x-amz-security-token'] === credentials.sessionToken;
}

function answer(status: number, body: object) {
  return { status, body: JSON.stringify(body) };
}

async function kms(request: IncomingMessage, text: string) {
  const target = String(request.headers['x-amz-target']);
  const body = JSON.parse(text) as Record<string, any>;
  calls.push({ target, body, signatureValid: await signatureValid(request, text) });
  if (request.headers['content-type'] !== 'application/x-amz-json-1.1') return answer(400, { __type: 'SerializationException' });
  if (throttle) return answer(400, { __type: 'com.amazonaws.kms#ThrottlingException', message: 'Rate exceeded' });
  if (target === 'TrentService.Encrypt') {
    const blob = randomBytes(48).toString('base64');
    vault.set(blob, { plaintext: body.Plaintext, keyId: body.KeyId, context: JSON.stringify(body.EncryptionContext ?? {}) });
    return answer(200, { CiphertextBlob: blob, KeyId: body.KeyId, EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' });
  }
  if (target === 'TrentService.Decrypt') {
    const entry = vault.get(body.CiphertextBlob);
    if (!entry || entry.keyId !== body.KeyId || entry.context !== JSON.stringify(body.EncryptionContext ?? {})) {
      return answer(400, { __type: 'InvalidCiphertextException', message: null });
    }
    return answer(200, { Plaintext: entry.plaintext, KeyId: entry.keyId });
  }
  return answer(400, { __type: 'UnknownOperationException' });
}

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      void kms(request, Buffer.concat(chunks).toString('utf8')).then(({ status, body }) => {
        response.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' }).end(body);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  calls = [];
  throttle = false;
});

const cipher = () => new KmsSecretCipher(new KmsClient({ region: REGION, credentials: async () => credentials, endpoint, maxAttempts: 2 }), KEY_ARN);

describe('KmsSecretCipher', () => {
  it('seals with the stack key under the tenant id as encryption context, in signed requests, and stores no plaintext', async () => {
    const sealed = await cipher().seal(SECRET, { tenantId: 'ten_acme' });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      target: 'TrentService.Encrypt',
      body: { KeyId: KEY_ARN, EncryptionContext: { tenant_id: 'ten_acme' }, Plaintext: Buffer.from(SECRET).toString('base64') },
      signatureValid: true,
    });
    expect(sealed).toMatch(/^kms1\.[A-Za-z0-9+/=]+$/);
    expect(sealed).not.toContain(SECRET);
    expect(sealed).not.toContain(Buffer.from(SECRET).toString('base64'));
    expect(await cipher().open(sealed, { tenantId: 'ten_acme' })).toBe(SECRET);
    expect(calls[1]).toMatchObject({ target: 'TrentService.Decrypt', body: { KeyId: KEY_ARN, EncryptionContext: { tenant_id: 'ten_acme' } }, signatureValid: true });
  });

  it("refuses to open a value under another tenant's context, or one it did not seal, without echoing the value", async () => {
    const sealed = await cipher().seal(SECRET, { tenantId: 'ten_acme' });
    const refused: Error = await cipher().open(sealed, { tenantId: 'ten_other' }).then(() => new Error('opened'), (e: unknown) => e as Error);
    expect(refused).toBeInstanceOf(Error);
    expect(refused.name).toBe('InvalidCiphertextException');
    expect(`${refused.message} ${String(refused.stack)}`).not.toContain(sealed.slice(5, 30));
    await expect(cipher().open('v1.aaaa.bbbb.cccc', { tenantId: 'ten_acme' })).rejects.toThrow(/not a value sealed with KMS/);
  });

  it('retries a throttled KMS, then answers backend unavailable (retryable), never with the secret in the error', async () => {
    throttle = true;
    const failure: Error = await cipher().seal(SECRET, { tenantId: 'ten_acme' }).then(() => new Error('sealed'), (e: unknown) => e as Error);
    expect(failure).toBeInstanceOf(BackendUnavailableError);
    expect(calls).toHaveLength(2);
    expect(`${failure.message} ${String(failure.stack)}`).not.toContain(SECRET);
  });

  it('answers backend unavailable when KMS cannot be reached', async () => {
    const unreachable = new KmsSecretCipher(new KmsClient({ region: REGION, credentials: async () => credentials, endpoint: 'http://127.0.0.1:1', maxAttempts: 1 }), KEY_ARN);
    await expect(unreachable.seal(SECRET, { tenantId: 'ten_acme' })).rejects.toBeInstanceOf(BackendUnavailableError);
  });
});

import { SignatureV4 } from '@smithy/signature-v4';
import type { CredentialsProvider } from '../caller-bucket/role-credentials.js';
import { isTransientAwsError } from './errors.js';
import { Sha256 } from './sha256.js';

/**
 * The two KMS calls the service makes (Encrypt, Decrypt), as SigV4-signed
 * requests to KMS's JSON API (`TrentService.<Action>`, the protocol the SDK's
 * own client speaks). The SDK's KMS client is not a dependency; its signer is.
 * An error carries KMS's type as its name and the HTTP status in `$metadata`,
 * like an SDK error, so errors.ts classifies it the same way.
 */
export interface KmsClientOptions {
  region: string;
  credentials: CredentialsProvider;
  /** https://kms.<region>.amazonaws.com unless given (tests point it at a local server). */
  endpoint?: string;
  timeoutMs?: number;
  /** Attempts of one call when KMS throttles, fails or cannot be reached. */
  maxAttempts?: number;
}

export class KmsError extends Error {
  readonly $metadata: { httpStatusCode?: number };
  readonly $retryable?: { throttling: boolean };
  constructor(name: string, message: string, status: number | undefined, options?: { cause?: unknown; retryable?: boolean }) {
    super(message, options);
    this.name = name;
    this.$metadata = { httpStatusCode: status };
    if (options?.retryable) this.$retryable = { throttling: false };
  }
}

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const bytesOf = (value: unknown) => new Uint8Array(Buffer.from(String(value ?? ''), 'base64'));

export class KmsClient {
  private readonly url: URL;
  private readonly signer: SignatureV4;

  constructor(private readonly options: KmsClientOptions) {
    this.url = new URL(options.endpoint ?? `https://kms.${options.region}.amazonaws.com/`);
    this.signer = new SignatureV4({ service: 'kms', region: options.region, credentials: options.credentials, sha256: Sha256 });
  }

  async encrypt(input: { keyId: string; plaintext: Uint8Array; context: Record<string, string> }): Promise<Uint8Array> {
    const out = await this.call('Encrypt', { KeyId: input.keyId, Plaintext: base64(input.plaintext), EncryptionContext: input.context });
    return bytesOf(out.CiphertextBlob);
  }

  async decrypt(input: { keyId: string; ciphertext: Uint8Array; context: Record<string, string> }): Promise<Uint8Array> {
    const out = await this.call('Decrypt', { KeyId: input.keyId, CiphertextBlob: base64(input.ciphertext), EncryptionContext: input.context });
    return bytesOf(out.Plaintext);
  }

  private async call(action: string, input: object): Promise<Record<string, unknown>> {
    const attempts = this.options.maxAttempts ?? 3;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.once(action, input);
      } catch (error) {
        if (attempt >= attempts || !isTransientAwsError(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
      }
    }
  }

  private async once(action: string, input: object): Promise<Record<string, unknown>> {
    const body = JSON.stringify(input);
    const signed = await this.signer.sign({
      method: 'POST', protocol: this.url.protocol, hostname: this.url.hostname, port: this.url.port ? Number(this.url.port) : undefined, path: '/',
      headers: { host: this.url.host, 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `TrentService.${action}` },
      body,
    });
    let response: Response;
    try {
      response = await fetch(new URL('/', this.url), {
        method: 'POST', headers: signed.headers, body, signal: AbortSignal.timeout(this.options.timeoutMs ?? 5_000),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause;
      const name = (error as Error).name === 'TimeoutError' ? 'TimeoutError' : (cause?.code ?? 'NetworkError');
      throw new KmsError(name, `KMS ${action}: no answer (${name})`, undefined, { cause: error, retryable: true });
    }
    const text = await response.text();
    const json = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
    if (!response.ok) {
      // `__type` is `ExceptionName` or `namespace#ExceptionName`; the message never holds the plaintext.
      const type = String(json.__type ?? `HTTP${response.status}`).split('#').pop()!;
      throw new KmsError(type, `KMS ${action}: ${type} (HTTP ${response.status})`, response.status);
    }
    return json;
  }
}

import type { KMSClient } from '@aws-sdk/client-kms';
import type { Context } from 'aws-lambda';
import { deriveFromKmsMacKey } from '../../adapters/aws/kms-mac-key.js';
import { kmsClient } from '../../adapters/aws/kms-secret-cipher.js';
import { logger, useEndUserLogKey } from '../../http/observability.js';
import { ENV } from './config.js';
import { tracer } from './observability.js';

/** The label the end-user log key is the MAC of (a new version would name end users anew). */
export const END_USER_LOG_KEY_LABEL = 'library end-user log key v1';

/**
 * The deployment's end-user log key on AWS: derived once per Lambda
 * environment (one KMS GenerateMac on the stack's HMAC key, at the first
 * invocation, ~10-30 ms) and made the key logs name end users with
 * (http/observability.ts). A function without the variable (one that names
 * no end user) does nothing. When KMS fails, the invocation goes on, its end
 * users hashed with the process's own random key (never an unkeyed hash), and
 * the next invocation tries again.
 */
export class EndUserLogKey {
  private pending: Promise<void> | undefined;

  constructor(
    private readonly env: Record<string, string | undefined> = process.env,
    private readonly makeClient: () => Pick<KMSClient, 'send'> = () =>
      tracer.captureAWSv3Client(kmsClient({ region: env.AWS_REGION ?? '' })),
    private readonly use: (key: Uint8Array) => void = useEndUserLogKey,
  ) {}

  ready(): Promise<void> {
    const keyArn = this.env[ENV.endUserLogKeyArn]?.trim();
    if (!keyArn) return Promise.resolve();
    this.pending ??= deriveFromKmsMacKey(this.makeClient(), keyArn, END_USER_LOG_KEY_LABEL).then(
      this.use,
      (error: unknown) => {
        this.pending = undefined;
        logger.error(
          "the end-user log key could not be derived: this environment's lines name end users with a key of its own until it can",
          { error: error as Error },
        );
      },
    );
    return this.pending;
  }
}

let shared: EndUserLogKey | undefined;

/** A Lambda handler that has the end-user log key before it runs (the entries of the routes that name end users). */
export function withEndUserLogKey<E, R>(
  handler: (event: E, context: Context) => Promise<R>,
  key: EndUserLogKey = (shared ??=
    new EndUserLogKey()),
): (event: E, context: Context) => Promise<R> {
  return async (event, context) => {
    await key.ready();
    return handler(event, context);
  };
}

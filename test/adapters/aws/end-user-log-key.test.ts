import { GenerateMacCommand, KMSClient } from '@aws-sdk/client-kms';
import type { Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { deriveFromKmsMacKey } from '../../../lambdas/adapters/aws/kms-mac-key.js';
import { ENV } from '../../../lambdas/wiring/aws/config.js';
import {
  END_USER_LOG_KEY_LABEL,
  EndUserLogKey,
  withEndUserLogKey,
} from '../../../lambdas/wiring/aws/end-user-log-key.js';

/** The end-user log key on AWS: derived from the stack's KMS HMAC key once per environment (KMS through aws-sdk-client-mock). */
const kms = mockClient(KMSClient);
const KEY_ARN = 'arn:aws:kms:eu-west-1:123456789012:key/11111111-2222-3333-4444-555555555555';
const MAC = new Uint8Array(Array.from({ length: 32 }, (_, i) => i + 1));
const client = () => new KMSClient({ region: 'eu-west-1' });

beforeEach(() => {
  kms.reset();
  kms.on(GenerateMacCommand).resolves({ Mac: MAC, KeyId: KEY_ARN, MacAlgorithm: 'HMAC_SHA_256' });
});
afterAll(() => kms.restore());

describe('the end-user log key on AWS', () => {
  it('is the MAC of a fixed label under the HMAC key, HMAC-SHA-256', async () => {
    expect(await deriveFromKmsMacKey(client(), KEY_ARN, END_USER_LOG_KEY_LABEL)).toEqual(MAC);
    const input = kms.commandCalls(GenerateMacCommand)[0]!.args[0].input;
    expect(input).toEqual({
      KeyId: KEY_ARN,
      MacAlgorithm: 'HMAC_SHA_256',
      Message: new TextEncoder().encode(END_USER_LOG_KEY_LABEL),
    });
    kms.on(GenerateMacCommand).resolves({ Mac: new Uint8Array(8) });
    await expect(deriveFromKmsMacKey(client(), KEY_ARN, END_USER_LOG_KEY_LABEL)).rejects.toThrow(/32-byte MAC/);
  });

  it('is derived once per environment, before the handler runs, and handed to the logs', async () => {
    const used: Uint8Array[] = [];
    const order: string[] = [];
    const key = new EndUserLogKey({ [ENV.endUserLogKeyArn]: KEY_ARN, AWS_REGION: 'eu-west-1' }, client, (k) => {
      used.push(k);
      order.push('key');
    });
    const handler = withEndUserLogKey(async (event: string) => {
      order.push(`handler ${event}`);
      return event.length;
    }, key);
    expect(await handler('one', {} as Context)).toBe(3);
    expect(await handler('two', {} as Context)).toBe(3);
    expect(order).toEqual(['key', 'handler one', 'handler two']);
    expect(used).toEqual([MAC]);
    expect(kms.commandCalls(GenerateMacCommand)).toHaveLength(1);
  });

  it('asks nothing of KMS in a function that names no end user (no variable)', async () => {
    const used: Uint8Array[] = [];
    await new EndUserLogKey({ AWS_REGION: 'eu-west-1' }, client, (k) => used.push(k)).ready();
    expect(used).toEqual([]);
    expect(kms.commandCalls(GenerateMacCommand)).toHaveLength(0);
  });

  it('lets the invocation go on when KMS fails, and tries again at the next one', async () => {
    kms
      .on(GenerateMacCommand)
      .rejectsOnce(
        Object.assign(new Error('denied'), { name: 'AccessDeniedException', $metadata: { httpStatusCode: 400 } }),
      )
      .resolves({ Mac: MAC });
    const used: Uint8Array[] = [];
    const key = new EndUserLogKey({ [ENV.endUserLogKeyArn]: KEY_ARN, AWS_REGION: 'eu-west-1' }, client, (k) =>
      used.push(k),
    );
    const handler = withEndUserLogKey(async () => 'answered', key);
    expect(await handler(undefined, {} as Context)).toBe('answered');
    expect(used).toEqual([]);
    expect(await handler(undefined, {} as Context)).toBe('answered');
    expect(used).toEqual([MAC]);
    expect(kms.commandCalls(GenerateMacCommand)).toHaveLength(2);
  });
});

import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { MachineBucketPrincipal, principalOfCaller } from '../../lambdas/adapters/local/machine-bucket-principal.js';

/**
 * The local stack's principal (docs/bucket.md, "Local stack"): the operator's
 * ARN, else the machine's AWS identity through STS (faked here), else none.
 */

const sts = mockClient(STSClient);
const keys = { accessKeyId: 'AKIAMACHINE', secretAccessKey: 'machine-secret' };

beforeEach(() => {
  sts.reset();
});

afterAll(() => {
  sts.restore();
});

/** A credential chain that counts its calls: resolving, or failing as the SDK's does on a machine without credentials. */
function chain(result: 'keys' | 'none' | 'hang' = 'keys') {
  const calls = { count: 0 };
  const provider = async () => {
    calls.count += 1;
    if (result === 'none')
      throw Object.assign(new Error('Could not load credentials from any providers'), {
        name: 'CredentialsProviderError',
      });
    if (result === 'hang') return new Promise<never>(() => undefined);
    return keys;
  };
  return { provider, calls };
}

describe('principalOfCaller', () => {
  it('turns an assumed-role session into its role', () => {
    expect(principalOfCaller('arn:aws:sts::123456789012:assumed-role/Developer/alice@example.com')).toBe(
      'arn:aws:iam::123456789012:role/Developer',
    );
    expect(
      principalOfCaller('arn:aws:sts::123456789012:assumed-role/ci-deploy+x=y,z.w/botocore-session-1700000000'),
    ).toBe('arn:aws:iam::123456789012:role/ci-deploy+x=y,z.w');
  });

  it('keeps the partition', () => {
    expect(principalOfCaller('arn:aws-cn:sts::123456789012:assumed-role/Dev/s')).toBe(
      'arn:aws-cn:iam::123456789012:role/Dev',
    );
    expect(principalOfCaller('arn:aws-us-gov:sts::123456789012:assumed-role/Dev/s')).toBe(
      'arn:aws-us-gov:iam::123456789012:role/Dev',
    );
  });

  it('keeps users as they are, a path included', () => {
    expect(principalOfCaller('arn:aws:iam::123456789012:user/alice')).toBe('arn:aws:iam::123456789012:user/alice');
    expect(principalOfCaller('arn:aws:iam::123456789012:user/engineering/alice')).toBe(
      'arn:aws:iam::123456789012:user/engineering/alice',
    );
  });

  it('names nothing for identities that cannot call AssumeRole or whose role ARN cannot be recovered', () => {
    expect(principalOfCaller('arn:aws:iam::123456789012:root')).toBeNull();
    expect(principalOfCaller('arn:aws:sts::123456789012:federated-user/bob')).toBeNull();
    // IAM Identity Center roles live under a path the STS ARN does not carry.
    expect(
      principalOfCaller('arn:aws:sts::123456789012:assumed-role/AWSReservedSSO_Admin_0123456789abcdef/alice'),
    ).toBeNull();
    expect(principalOfCaller('arn:aws:sts::123456789012:assumed-role/Dev')).toBeNull();
    expect(principalOfCaller('not an arn')).toBeNull();
    expect(principalOfCaller('')).toBeNull();
  });
});

describe('MachineBucketPrincipal', () => {
  it('names the configured ARN first, asking nothing of the credentials or STS', async () => {
    const machine = chain();
    const principal = new MachineBucketPrincipal({
      configuredArn: 'arn:aws:iam::111111111111:role/operator-set',
      credentials: machine.provider,
    });
    expect(await principal.principalArn()).toBe('arn:aws:iam::111111111111:role/operator-set');
    expect(machine.calls.count).toBe(0);
    expect(sts.calls()).toHaveLength(0);
  });

  it("else names the role of the machine's credentials, asking STS once with them", async () => {
    sts.on(GetCallerIdentityCommand).resolves({
      Arn: 'arn:aws:sts::123456789012:assumed-role/Developer/alice',
      Account: '123456789012',
      UserId: 'AROAX:alice',
    });
    const machine = chain();
    const logged: string[] = [];
    const principal = new MachineBucketPrincipal({
      configuredArn: null,
      credentials: machine.provider,
      log: (message, detail) => logged.push(message + JSON.stringify(detail)),
    });
    const [first, second] = await Promise.all([principal.principalArn(), principal.principalArn()]);
    expect(first).toBe('arn:aws:iam::123456789012:role/Developer');
    expect(second).toBe(first);
    expect(await principal.principalArn()).toBe(first);
    expect(machine.calls.count).toBe(1);
    expect(sts.commandCalls(GetCallerIdentityCommand)).toHaveLength(1);
    expect(await sts.call(0).thisValue.config.credentials()).toMatchObject(keys);
    expect(logged.join('\n')).not.toContain('machine-secret');
  });

  it('names a user as it is', async () => {
    sts.on(GetCallerIdentityCommand).resolves({ Arn: 'arn:aws:iam::123456789012:user/alice' });
    expect(
      await new MachineBucketPrincipal({ configuredArn: null, credentials: chain().provider }).principalArn(),
    ).toBe('arn:aws:iam::123456789012:user/alice');
  });

  it('names none, without calling STS, when the machine has no credentials, and does not try again', async () => {
    const machine = chain('none');
    const principal = new MachineBucketPrincipal({ configuredArn: null, credentials: machine.provider });
    expect(await principal.principalArn()).toBeNull();
    expect(await principal.principalArn()).toBeNull();
    expect(machine.calls.count).toBe(1);
    expect(sts.calls()).toHaveLength(0);
  });

  it('names none when STS refuses, and caches the failure', async () => {
    sts
      .on(GetCallerIdentityCommand)
      .rejects(
        Object.assign(new Error('The security token included in the request is expired'), { name: 'ExpiredToken' }),
      );
    const logged: Array<Record<string, unknown>> = [];
    const principal = new MachineBucketPrincipal({
      configuredArn: null,
      credentials: chain().provider,
      log: (_, detail) => logged.push(detail),
    });
    expect(await principal.principalArn()).toBeNull();
    expect(await principal.principalArn()).toBeNull();
    expect(sts.commandCalls(GetCallerIdentityCommand)).toHaveLength(1);
    expect(logged).toEqual([{ reason: 'ExpiredToken' }]);
  });

  it('names none when the credentials or STS do not answer in time, and caches that too', async () => {
    const hanging = chain('hang');
    const slowCredentials = new MachineBucketPrincipal({
      configuredArn: null,
      credentials: hanging.provider,
      timeoutMs: 50,
    });
    const started = Date.now();
    expect(await slowCredentials.principalArn()).toBeNull();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await slowCredentials.principalArn()).toBeNull();
    expect(hanging.calls.count).toBe(1);
    expect(sts.calls()).toHaveLength(0);

    sts.on(GetCallerIdentityCommand).callsFake(() => new Promise(() => undefined));
    const slowSts = new MachineBucketPrincipal({ configuredArn: null, credentials: chain().provider, timeoutMs: 50 });
    expect(await slowSts.principalArn()).toBeNull();
    expect(await slowSts.principalArn()).toBeNull();
    expect(sts.commandCalls(GetCallerIdentityCommand)).toHaveLength(1);
  });

  it('names none for an identity a trust policy cannot name (the account root)', async () => {
    sts.on(GetCallerIdentityCommand).resolves({ Arn: 'arn:aws:iam::123456789012:root' });
    const principal = new MachineBucketPrincipal({ configuredArn: null, credentials: chain().provider });
    expect(await principal.principalArn()).toBeNull();
    expect(await principal.principalArn()).toBeNull();
    expect(sts.commandCalls(GetCallerIdentityCommand)).toHaveLength(1);
  });
});

import { CreateBucketCommand, GetObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { AssumeRoleCommand, type AssumeRoleCommandOutput, STSClient } from '@aws-sdk/client-sts';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { S3BucketConnector } from '../../../lambdas/adapters/caller-bucket/connector.js';
import { dedicatedRoleCaller, StsRoleCredentials } from '../../../lambdas/adapters/caller-bucket/role-credentials.js';
import { roleSessionName, tenantSessionName } from '../../../lambdas/adapters/caller-bucket/session-name.js';
import { BackendUnavailableError, BucketError } from '../../../lambdas/core/errors.js';
import type { BucketAccess } from '../../../lambdas/core/ports.js';
import { startS3rver } from './local-aws.js';

/**
 * The AWS way to a customer's bucket by role: the function's role assumes the
 * stack's dedicated role, whose session assumes the customer's role with the
 * tenant's external id. STS is aws-sdk-client-mock (reset before each test);
 * the credentials it hands out are then used for real against s3rver (which
 * knows the access key id S3RVER only, so any other is refused like a revoked
 * session).
 */
const sts = mockClient(STSClient);
const REGION = 'eu-west-1';
const DEDICATED = 'arn:aws:iam::111111111111:role/Library-Api-CallerBucketAccessRole-XYZ';
const CUSTOMER = 'arn:aws:iam::222222222222:role/library-bucket-access';
const EXTERNAL_ID = 'lib-3q2-external-id';
const target = { tenantId: 'ten_acme', roleArn: CUSTOMER, externalId: EXTERNAL_ID };

let now = Date.parse('2026-11-24T03:00:00Z');
const HOUR = 3600_000;

const session = (accessKeyId: string, expiresAt = now + HOUR): AssumeRoleCommandOutput => ({
  $metadata: {},
  Credentials: {
    AccessKeyId: accessKeyId,
    SecretAccessKey: `secret-of-${accessKeyId}`,
    SessionToken: `token-of-${accessKeyId}`,
    Expiration: new Date(expiresAt),
  },
});
const stsError = (
  name: string,
  status: number,
  message = `User: arn:aws:sts::111111111111:assumed-role/X/library-capture is not authorized (${name})`,
) => Object.assign(new Error(message), { name, $metadata: { httpStatusCode: status } });

const customerCalls = () =>
  sts
    .commandCalls(AssumeRoleCommand)
    .filter((c) => c.args[0].input.RoleArn === CUSTOMER)
    .map((c) => c.args[0].input);
const dedicatedCalls = () =>
  sts
    .commandCalls(AssumeRoleCommand)
    .filter((c) => c.args[0].input.RoleArn === DEDICATED)
    .map((c) => c.args[0].input);

/** The AWS composition (lambdas/wiring/aws/buckets.ts), with the function's own credentials stubbed. */
function awsRoles() {
  const caller = dedicatedRoleCaller({
    region: REGION,
    roleArn: DEDICATED,
    sessionName: 'Library-Api-CaptureFunction',
    now: () => now,
    functionCredentials: async () => ({
      accessKeyId: 'ASIAFUNCTION',
      secretAccessKey: 'function-secret',
      sessionToken: 'function-token',
    }),
  });
  return new StsRoleCredentials({ region: REGION, caller, now: () => now });
}

beforeEach(() => {
  sts.reset();
  now = Date.parse('2026-11-24T03:00:00Z');
  sts.on(AssumeRoleCommand, { RoleArn: DEDICATED }).resolves(session('ASIADEDICATED'));
});
afterAll(() => sts.restore());

describe('STS: the request', () => {
  it("assumes the customer's role from the dedicated role's session: its ARN, the tenant's external id, a session named for the tenant, one hour", async () => {
    // The customer's role is assumed by a client signing with the dedicated role's session, not the function's own.
    let signer: string | undefined;
    sts.on(AssumeRoleCommand, { RoleArn: CUSTOMER }).callsFake(async (_input, getClient) => {
      signer = (await (getClient().config.credentials as () => Promise<{ accessKeyId: string }>)()).accessKeyId;
      return session('S3RVER');
    });
    const credentials = await awsRoles().credentials(target);
    expect(credentials).toMatchObject({
      accessKeyId: 'S3RVER',
      secretAccessKey: 'secret-of-S3RVER',
      sessionToken: 'token-of-S3RVER',
    });
    expect(customerCalls()).toEqual([
      { RoleArn: CUSTOMER, ExternalId: EXTERNAL_ID, RoleSessionName: 'library-ten_acme', DurationSeconds: 3600 },
    ]);
    expect(dedicatedCalls()).toEqual([
      { RoleArn: DEDICATED, RoleSessionName: 'Library-Api-CaptureFunction', DurationSeconds: 3600 },
    ]);
    expect(signer).toBe('ASIADEDICATED');
  });

  it("names sessions within STS's rules: allowed characters only, 2 to 64 of them, the tenant readable", () => {
    expect(tenantSessionName('ten_01JD5Q')).toBe('library-ten_01JD5Q');
    const odd = tenantSessionName(`ten/with spaces:and*stars${'x'.repeat(80)}`);
    expect(odd).toMatch(/^[\w+=,.@-]{2,64}$/);
    expect(odd.startsWith('library-ten-with-spaces-and-stars')).toBe(true);
    expect(roleSessionName('a')).toMatch(/^[\w+=,.@-]{2}$/);
  });
});

describe('STS: the session cache', () => {
  it('reuses a session, renews it within five minutes of its end, and makes one call for concurrent askers', async () => {
    sts
      .on(AssumeRoleCommand, { RoleArn: CUSTOMER })
      .resolvesOnce(session('ASIAFIRST'))
      .resolves(session('ASIASECOND', now + 2 * HOUR));
    const roles = awsRoles();
    const together = await Promise.all(Array.from({ length: 5 }, () => roles.credentials(target)));
    expect(new Set(together.map((c) => c.accessKeyId))).toEqual(new Set(['ASIAFIRST']));
    expect(customerCalls()).toHaveLength(1);

    now += 50 * 60_000; // ten minutes left: still used
    expect((await roles.credentials(target)).accessKeyId).toBe('ASIAFIRST');
    expect(customerCalls()).toHaveLength(1);

    now += 6 * 60_000; // four minutes left: renewed before it ends
    const renewed = await Promise.all([roles.credentials(target), roles.credentials(target)]);
    expect(renewed.map((c) => c.accessKeyId)).toEqual(['ASIASECOND', 'ASIASECOND']);
    expect(customerCalls()).toHaveLength(2);
  });

  it('keeps sessions apart per tenant, role and external id', async () => {
    sts.on(AssumeRoleCommand, { RoleArn: CUSTOMER }).resolves(session('ASIAANY'));
    const roles = awsRoles();
    await roles.credentials(target);
    await roles.credentials({ ...target, externalId: 'lib-another-id' });
    await roles.credentials({ ...target, tenantId: 'ten_other' });
    await roles.credentials(target);
    expect(customerCalls().map((c) => [c.ExternalId, c.RoleSessionName])).toEqual([
      [EXTERNAL_ID, 'library-ten_acme'],
      ['lib-another-id', 'library-ten_acme'],
      [EXTERNAL_ID, 'library-ten_other'],
    ]);
  });

  it('forgets a dropped session at once, and every session of a tenant it forgets', async () => {
    sts.on(AssumeRoleCommand, { RoleArn: CUSTOMER }).resolves(session('ASIAANY'));
    const roles = awsRoles();
    await roles.credentials(target);
    roles.drop(target);
    await roles.credentials(target);
    expect(customerCalls()).toHaveLength(2);
    roles.forget('ten_acme');
    await roles.credentials(target);
    expect(customerCalls()).toHaveLength(3);
  });

  it("reports STS's refusal as denied during assume_role, without STS's message, and caches nothing", async () => {
    sts
      .on(AssumeRoleCommand, { RoleArn: CUSTOMER })
      .rejectsOnce(stsError('AccessDenied', 403))
      .resolves(session('ASIALATER'));
    const roles = awsRoles();
    const failure = await roles.credentials(target).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(BucketError);
    expect(failure).toMatchObject({ kind: 'denied', during: 'assume_role', detail: 'AccessDenied (HTTP 403)' });
    expect(String((failure as Error).message)).not.toContain('arn:aws:sts');
    // The customer fixed the trust policy: the next call asks STS again.
    expect((await roles.credentials(target)).accessKeyId).toBe('ASIALATER');
  });

  it("reports STS throttling as unreachable, and a failure of the dedicated hop as the service's own (backend unavailable)", async () => {
    sts.on(AssumeRoleCommand, { RoleArn: CUSTOMER }).rejects(stsError('Throttling', 400, 'Rate exceeded'));
    await expect(awsRoles().credentials(target)).rejects.toMatchObject({ kind: 'unreachable', during: 'assume_role' });

    sts.reset();
    sts.on(AssumeRoleCommand, { RoleArn: DEDICATED }).rejects(stsError('AccessDenied', 403));
    sts.on(AssumeRoleCommand, { RoleArn: CUSTOMER }).callsFake(async (_input, getClient) => {
      await (getClient().config.credentials as () => Promise<unknown>)();
      return session('S3RVER');
    });
    await expect(awsRoles().credentials(target)).rejects.toBeInstanceOf(BackendUnavailableError);
  });
});

describe("the session's credentials against a real S3 API (s3rver)", () => {
  let s3: Awaited<ReturnType<typeof startS3rver>>;
  let endpoint: string;

  beforeAll(async () => {
    s3 = await startS3rver();
    endpoint = await s3.client.config.endpoint!().then((e) => `${e.protocol}//${e.hostname}:${e.port}`);
    await s3.client.send(new CreateBucketCommand({ Bucket: 'customer-bucket' }));
  });
  afterAll(async () => {
    await s3?.close();
  });

  /** A role registration; the endpoint stands in for AWS S3 here (a role has none in production). */
  const access = (): BucketAccess => ({
    tenantId: 'ten_acme',
    provider: 's3',
    bucket: 'customer-bucket',
    region: 'us-east-1',
    endpoint,
    auth: { kind: 'role', roleArn: CUSTOMER, externalId: EXTERNAL_ID },
  });
  // Loopback is allowed for the test server only; the AWS wiring never allows it.
  const connector = (roles: StsRoleCredentials) =>
    new S3BucketConnector({ allowPrivateEndpoints: true, roleCredentials: roles });

  it('puts, reads back and deletes with the assumed session', async () => {
    sts.on(AssumeRoleCommand, { RoleArn: CUSTOMER }).resolves(session('S3RVER'));
    const store = connector(awsRoles()).open(access());
    await store.put('library/shared/doc_1', Buffer.from('the customer owns these bytes'), 'text/plain');
    const stored = await s3.client.send(
      new GetObjectCommand({ Bucket: 'customer-bucket', Key: 'library/shared/doc_1' }),
    );
    expect(await stored.Body!.transformToString()).toBe('the customer owns these bytes');
    expect(Buffer.from((await store.get('library/shared/doc_1'))!).toString()).toBe('the customer owns these bytes');
    await store.delete('library/shared/doc_1');
    await expect(
      s3.client.send(new HeadObjectCommand({ Bucket: 'customer-bucket', Key: 'library/shared/doc_1' })),
    ).rejects.toMatchObject({ name: 'NotFound' });
    expect(customerCalls()).toHaveLength(1);
  });

  it('drops a session the bucket refuses and works at once with a new one (a role deleted and recreated)', async () => {
    // The first session belongs to the deleted role: the bucket refuses it (s3rver: unknown access key id).
    sts
      .on(AssumeRoleCommand, { RoleArn: CUSTOMER })
      .resolvesOnce(session('ASIADELETEDROLE'))
      .resolves(session('S3RVER'));
    const roles = awsRoles();
    await roles.credentials(target); // cached, as a warm function would hold it
    const store = connector(roles).open(access());
    await store.put('library/shared/doc_2', Buffer.from('after the role came back'), 'text/plain');
    expect(customerCalls()).toHaveLength(2);
    const stored = await s3.client.send(
      new GetObjectCommand({ Bucket: 'customer-bucket', Key: 'library/shared/doc_2' }),
    );
    expect(await stored.Body!.transformToString()).toBe('after the role came back');
    // The new session is the one kept.
    await store.get('library/shared/doc_2');
    expect(customerCalls()).toHaveLength(2);
  });

  it("answers backend unavailable, not the customer's bucket failing, when the service cannot assume its own dedicated role", async () => {
    sts.reset();
    sts.on(AssumeRoleCommand, { RoleArn: DEDICATED }).rejects(stsError('AccessDenied', 403));
    sts.on(AssumeRoleCommand, { RoleArn: CUSTOMER }).callsFake(async (_input, getClient) => {
      await (getClient().config.credentials as () => Promise<unknown>)();
      return session('S3RVER');
    });
    const failure = await connector(awsRoles())
      .open(access())
      .put('library/shared/doc_4', Buffer.from('x'), 'text/plain')
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(BackendUnavailableError);
    expect(failure).not.toBeInstanceOf(BucketError);
  });

  it('refuses with denied when even a fresh session is refused, naming no credential', async () => {
    sts.on(AssumeRoleCommand, { RoleArn: CUSTOMER }).resolves(session('ASIANOTALLOWED'));
    const failure = await connector(awsRoles())
      .open(access())
      .put('library/shared/doc_3', Buffer.from('x'), 'text/plain')
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(BucketError);
    expect(failure).toMatchObject({ kind: 'denied', during: 'request', detail: 'InvalidAccessKeyId (HTTP 403)' });
    expect(JSON.stringify({ ...(failure as object), message: (failure as Error).message })).not.toMatch(
      /secret-of|token-of/,
    );
    // One retry with a fresh session, then the refusal stands.
    expect(customerCalls()).toHaveLength(2);
  });
});

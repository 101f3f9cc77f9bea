import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AssumeRoleCommand, GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readLocalConfig } from '../../bin/config.js';
import { NO_PRINCIPAL_ARN } from '../../lambdas/core/bucket/bucket-service.js';
import { baseLogger } from '../../lambdas/http/observability.js';
import { makePdf } from '../extraction/fixtures.js';
import { type CustomerBucket, closedPort, startCustomerBucket } from '../support/customer-bucket.js';
import { HashingEmbedder } from '../support/hashing-embedder.js';
import { startTestServer, type TestServer } from '../support/local-server.js';

/**
 * The caller-owned bucket end to end on the local stack (API.md
 * "Caller-owned bucket"): s3rver on loopback is the customers' S3, with
 * LIBRARY_ALLOW_PRIVATE_ENDPOINTS on; every answer and every line the server
 * logs is kept and searched for the secrets at the end.
 */

let bucket: CustomerBucket;
let server: TestServer;
let keyA: string;
let keyB: string;
let keyFlaky: string;
let keyC: string;
const SECRET_A = `secret-a-${crypto.randomUUID()}`;
const SECRET_B = `secret-b-${crypto.randomUUID()}`;
const SECRET_FLAKY = `secret-f-${crypto.randomUUID()}`;
const MACHINE_SECRET = `machine-${crypto.randomUUID()}`;
const bodies: string[] = [];
let log = '';

const api = async (path: string, init: Parameters<TestServer['api']>[1] = {}) => {
  const res = await server.api(path, init);
  bodies.push(JSON.stringify(res.body));
  return res;
};
const put = (key: string, body: Record<string, unknown>) => api('/v1/bucket', { key, method: 'PUT', body });
const fileItem = (text: string, extra: Record<string, unknown> = {}) => ({
  content_base64: Buffer.from(text).toString('base64'),
  filename: 'note.txt',
  content_type: 'text/plain',
  ...extra,
});
const blobFiles = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => e.name)
    : [];

async function waitReady(key: string, id: string, query = ''): Promise<Record<string, unknown>> {
  for (let i = 0; i < 200; i += 1) {
    const doc = await api(`/v1/documents/${id}${query}`, { key });
    if (doc.body.status !== 'processing') return doc.body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`document ${id} still processing`);
}

beforeAll(async () => {
  bucket = await startCustomerBucket(['customer-a', 'customer-b', 'customer-flaky']);
  bucket.addKey('AKIATENANTA', SECRET_A);
  bucket.addKey('AKIATENANTB', SECRET_B);
  bucket.addKey('AKIAFLAKY', SECRET_FLAKY);
  baseLogger.setLogLevel('DEBUG');
  const capture = ((chunk: string | Uint8Array) => {
    log += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  }) as typeof process.stdout.write;
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  // The test server runs as a machine without AWS credentials (as CI is), whatever this shell has (test/support/aws-env.ts).
  server = await startTestServer({
    embedder: new HashingEmbedder(),
    buckets: { allowPrivateEndpoints: true, retryIntervalMs: 3_600_000 },
  });
  keyA = await server.newKey('bucket-a');
  keyB = await server.newKey('bucket-b');
  keyFlaky = await server.newKey('bucket-flaky');
  keyC = await server.newKey('bucket-c');
}, 60_000);

afterAll(async () => {
  await server?.close();
  await bucket?.close();
  vi.restoreAllMocks();
  baseLogger.setLogLevel('SILENT');
});

const trustPolicyOf = (principal: string, externalId: string) => ({
  Version: '2012-10-17',
  Statement: [
    {
      Effect: 'Allow',
      Principal: { AWS: principal },
      Action: 'sts:AssumeRole',
      Condition: { StringEquals: { 'sts:ExternalId': externalId } },
    },
  ],
});

const registrationA = () => ({
  provider: 's3',
  bucket: 'customer-a',
  endpoint: bucket.endpoint,
  prefix: 'tenant-a',
  access_key_id: 'AKIATENANTA',
  secret_access_key: SECRET_A,
});

describe('registration', () => {
  it('answers the trust policy without an AWS identity, naming a principal IAM refuses, and refuses role registration', async () => {
    const res = await api('/v1/bucket/trust-policy', { key: keyA });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      service_principal_arn: NO_PRINCIPAL_ARN,
      external_id: expect.stringMatching(/^lib-[A-Za-z0-9_-]{32}$/),
      trust_policy: trustPolicyOf(NO_PRINCIPAL_ARN, res.body.external_id),
    });
    expect(NO_PRINCIPAL_ARN).toBe('arn:aws:iam::000000000000:role/library-local-no-aws-identity');
    const role = await put(keyA, {
      provider: 's3',
      bucket: 'customer-a',
      role_arn: 'arn:aws:iam::123456789012:role/library',
    });
    expect(role.status).toBe(422);
    expect(role.body.error).toMatchObject({
      code: 'invalid_request',
      message: expect.stringMatching(/^role_arn: .*register with access_key_id and secret_access_key/),
    });
  });

  it("keeps each tenant's external id: the same on every call and across key rotation, never another tenant's", async () => {
    const first = (await api('/v1/bucket/trust-policy', { key: keyA })).body.external_id as string;
    expect((await api('/v1/bucket/trust-policy', { key: keyA })).body.external_id).toBe(first);
    const oldKey = keyA;
    keyA = (await server.stack.services.keys.rotate('bucket-a')).api_key;
    expect((await api('/v1/bucket/trust-policy', { key: oldKey })).status).toBe(401);
    const rotated = await api('/v1/bucket/trust-policy', { key: keyA });
    expect(rotated.body.external_id).toBe(first);
    expect(rotated.body.trust_policy.Statement[0].Condition.StringEquals['sts:ExternalId']).toBe(first);
    const other = await api('/v1/bucket/trust-policy', { key: keyB });
    expect(other.status).toBe(200);
    expect(other.body.external_id).toMatch(/^lib-[A-Za-z0-9_-]{32}$/);
    expect(other.body.external_id).not.toBe(first);
    expect(other.body.trust_policy).toEqual(trustPolicyOf(NO_PRINCIPAL_ARN, other.body.external_id));
  });

  it('is 404 before anything is registered', async () => {
    expect((await api('/v1/bucket', { key: keyA })).status).toBe(404);
    expect((await api('/v1/bucket', { key: keyA, method: 'DELETE' })).status).toBe(404);
  });

  it('registers with keys after a probe that leaves nothing behind', async () => {
    const res = await put(keyA, registrationA());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      provider: 's3',
      bucket: 'customer-a',
      region: 'us-east-1',
      endpoint: bucket.endpoint,
      prefix: 'tenant-a/',
      auth: 'keys',
      verified_at: expect.any(String),
    });
    expect(await bucket.list('customer-a')).toEqual([]);
    const got = await api('/v1/bucket', { key: keyA });
    expect(got.body).toMatchObject({
      ...res.body,
      state: 'ok',
      last_error: null,
      last_error_at: null,
      pending_deletes: 0,
      role_arn: null,
    });
  });

  it('stores the secret sealed, under a key file only its owner reads', () => {
    const row = server.stack.db
      .prepare('SELECT sealed_secret, access_key_id FROM bucket_registrations')
      .all() as Array<{ sealed_secret: string }>;
    expect(row).toHaveLength(1);
    expect(row[0]!.sealed_secret).not.toContain(SECRET_A);
    expect(row[0]!.sealed_secret).toMatch(/^v1\./);
    expect(statSync(join(server.dataDir, 'secrets.key')).mode & 0o777).toBe(0o600);
  });

  it('refuses bad registrations, naming the field', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...registrationA(), secret_access_key: undefined }, /^secret_access_key: /],
      [{ ...registrationA(), role_arn: 'arn:aws:iam::123456789012:role/x' }, /^role_arn: .*not both/],
      [
        { provider: 'r2', bucket: 'customer-a', access_key_id: 'AKIATENANTA', secret_access_key: SECRET_A },
        /^endpoint: R2 needs/,
      ],
      [{ ...registrationA(), prefix: '../up' }, /^prefix: /],
      [{ ...registrationA(), endpoint: 'ftp://example.com' }, /^endpoint: must use https/],
      [{ ...registrationA(), bucket: 'Not_A_Bucket' }, /^bucket: /],
      // S3's other naming rules, refused before any request to the bucket.
      [{ ...registrationA(), bucket: 'good..bucket' }, /^bucket: .*two dots/],
      [{ ...registrationA(), bucket: '192.168.1.1' }, /^bucket: .*IP address/],
      [{ ...registrationA(), bucket: 'xn--bucket' }, /^bucket: .*reserves/],
      // An empty region names none to S3 (R2 alone takes it as its "auto").
      [{ ...registrationA(), region: '' }, /^region: must be a region name/],
      [{ ...registrationA(), surprise: 1 }, /^surprise: unknown field/],
    ];
    for (const [body, message] of cases) {
      const res = await put(keyA, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.code).toBe('invalid_request');
      expect(res.body.error.message).toMatch(message);
    }
  });
});

describe('probe failures name the step and leave the registration there was', () => {
  it('a wrong secret: write refused, check the key pair', async () => {
    bucket.verifiedKeys.set('AKIATENANTA', SECRET_A);
    // A right pair through the verifying proxy passes (the check is real), a wrong secret does not.
    expect((await put(keyC, { ...registrationA(), endpoint: bucket.proxyEndpoint })).status).toBe(200);
    expect((await api('/v1/bucket', { key: keyC, method: 'DELETE' })).status).toBe(200);
    const res = await put(keyA, {
      ...registrationA(),
      endpoint: bucket.proxyEndpoint,
      secret_access_key: 'not-the-secret',
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('bucket_access_denied');
    expect(res.body.error.message).toMatch(
      /^write: the bucket "customer-a" at http:\/\/127\.0\.0\.1:\d+ refused writing the probe object "tenant-a\/\.library-probe\/[0-9a-f]+" \(SignatureDoesNotMatch \(HTTP 403\)\); check access_key_id and secret_access_key/,
    );
    expect(res.body.error.message).not.toContain('not-the-secret');
  });

  it('a missing bucket: write refused, check the bucket name', async () => {
    const res = await put(keyA, { ...registrationA(), bucket: 'no-such-bucket' });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({
      code: 'bucket_access_denied',
      message: expect.stringMatching(/^write: .*NoSuchBucket \(HTTP 404\).*check the bucket name/),
    });
  });

  it('an unreachable endpoint: bucket_unreachable at the write', async () => {
    const res = await put(keyA, { ...registrationA(), endpoint: `http://127.0.0.1:${await closedPort()}` });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({
      code: 'bucket_unreachable',
      message: expect.stringMatching(
        /^write: the bucket "customer-a" at http:\/\/127\.0\.0\.1:\d+ could not be reached \(ECONNREFUSED\); check the endpoint/,
      ),
    });
  });

  it('a bucket that takes writes but refuses deletes: delete refused, the probe object named', async () => {
    bucket.proxy.mode = 'refuse-delete';
    try {
      const res = await put(keyA, { ...registrationA(), endpoint: bucket.proxyEndpoint });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('bucket_access_denied');
      expect(res.body.error.message).toMatch(
        /^delete: the bucket "customer-a" at http:\/\/127\.0\.0\.1:\d+ refused deleting the probe object "tenant-a\/\.library-probe\/[0-9a-f]+" \(it is still there: delete it yourself\) \(AccessDenied \(HTTP 403\)\); check that the credentials allow s3:DeleteObject on "customer-a\/tenant-a\/\*"/,
      );
      const left = /"(tenant-a\/\.library-probe\/[0-9a-f]+)"/.exec(res.body.error.message)![1]!;
      expect(await bucket.list('customer-a')).toEqual([left]); // said so truthfully
    } finally {
      bucket.proxy.mode = 'pass';
    }
  });

  it('left the first registration in place through every failure', async () => {
    const got = await api('/v1/bucket', { key: keyA });
    expect(got.body).toMatchObject({ bucket: 'customer-a', endpoint: bucket.endpoint, state: 'ok' });
    // The probe object of the refused delete is the customer's to remove; remove it so later listings are exact.
    const probeKeys = await bucket.list('customer-a', 'tenant-a/.library-probe/');
    expect(probeKeys).toHaveLength(1);
    const { DeleteObjectCommand, S3Client } = await import('@aws-sdk/client-s3');
    const admin = new S3Client({
      endpoint: bucket.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      forcePathStyle: true,
    });
    await admin.send(new DeleteObjectCommand({ Bucket: 'customer-a', Key: probeKeys[0]! }));
    admin.destroy();
  });
});

describe('captures while registered', () => {
  const ids: Record<string, string> = {};

  it('a text push stores no blob anywhere; a file lands under the prefix, named by library and document', async () => {
    const text = await api('/v1/capture', { key: keyA, body: { text: 'the zephyr project kickoff is on tuesday' } });
    expect(text.status).toBe(201);
    expect((await api(`/v1/documents/${text.body.id}`, { key: keyA })).body.storage).toBe('service');

    const file = await api('/v1/capture', {
      key: keyA,
      body: fileItem('quarterly ledger: the walrus budget is 42 crowns'),
    });
    expect(file.status).toBe(201);
    ids.shared = file.body.id;
    const user = 'user/ü 1.x';
    const forUser = await api('/v1/capture', {
      key: keyA,
      body: fileItem('the end user keeps a heron diary', { end_user_id: user }),
    });
    expect(forUser.status).toBe(201);
    ids.user = forUser.body.id;

    expect(await bucket.list('customer-a')).toEqual(
      [`tenant-a/end-users/user%2F%C3%BC%201%2Ex/${ids.user}`, `tenant-a/shared/${ids.shared}`].sort(),
    );
    expect((await bucket.read('customer-a', `tenant-a/shared/${ids.shared}`)).toString()).toBe(
      'quarterly ledger: the walrus budget is 42 crowns',
    );
    const doc = await api(`/v1/documents/${ids.shared}`, { key: keyA });
    expect(doc.body).toMatchObject({ storage: 'bucket', status: 'ready' });
    expect(blobFiles(join(server.dataDir, 'blobs'))).toEqual([]);
  });

  it('a batch, with a PDF queued for extraction, lands in the bucket and is read back from it', async () => {
    const pdf = await makePdf([{ text: 'The albatross manifest lists nine crates of saffron.' }]);
    const batch = await api('/v1/capture/batch', {
      key: keyA,
      body: {
        items: [
          fileItem('batch note about the marmot census'),
          { content_base64: pdf.toString('base64'), filename: 'manifest.pdf', content_type: 'application/pdf' },
        ],
      },
    });
    expect(batch.status).toBe(200);
    expect(batch.body.succeeded).toBe(2);
    ids.batchNote = batch.body.results[0].id;
    ids.pdf = batch.body.results[1].id;
    expect(await waitReady(keyA, ids.pdf!)).toMatchObject({ status: 'ready', storage: 'bucket', kind: 'file' });
    expect((await bucket.read('customer-a', `tenant-a/shared/${ids.pdf}`)).equals(pdf)).toBe(true);
    expect(blobFiles(join(server.dataDir, 'blobs'))).toEqual([]);
  });

  it('search, grep, documents and chat work unchanged', async () => {
    const search = await api('/v1/search?q=albatross%20saffron', { key: keyA });
    expect(search.body.results.map((r: { id: string }) => r.id)).toContain(ids.pdf);
    const grep = await api('/v1/grep?pattern=walrus', { key: keyA });
    expect(grep.body.results).toEqual([expect.objectContaining({ file_id: ids.shared, line: 1 })]);
    const list = await api('/v1/documents', { key: keyA });
    expect(list.body.documents.filter((d: { storage: string }) => d.storage === 'bucket')).toHaveLength(3);
    const chat = await api('/v1/chat', {
      key: keyA,
      body: { question: 'How many crates of saffron does the albatross manifest list?' },
    });
    expect(chat.status).toBe(200);
    expect(chat.body.sources.map((s: { file_id: string }) => s.file_id)).toContain(ids.pdf);
  });

  it('deleting a document deletes its object and counts it', async () => {
    const res = await api(`/v1/documents/${ids.batchNote}`, { key: keyA, method: 'DELETE' });
    expect(res.body).toEqual({ id: ids.batchNote, deleted: true, blobs_deleted: 1, blobs_pending: 0 });
    expect(await bucket.list('customer-a', 'tenant-a/shared/')).not.toContain(`tenant-a/shared/${ids.batchNote}`);
  });

  it("erasing an end user deletes the end user's objects", async () => {
    const res = await api(`/v1/end-users/${encodeURIComponent('user/ü 1.x')}`, { key: keyA, method: 'DELETE' });
    expect(res.body).toMatchObject({ documents_deleted: 1, blobs_deleted: 1, blobs_pending: 0 });
    expect(await bucket.list('customer-a', 'tenant-a/end-users/')).toEqual([]);
  });

  it("a second tenant never sees the first one's registration or objects", async () => {
    const res = await put(keyB, {
      provider: 's3',
      bucket: 'customer-b',
      endpoint: bucket.endpoint,
      access_key_id: 'AKIATENANTB',
      secret_access_key: SECRET_B,
    });
    expect(res.status).toBe(200);
    expect(res.body.prefix).toBe('library/');
    const file = await api('/v1/capture', { key: keyB, body: fileItem('tenant b keeps a separate ledger of otters') });
    expect(await bucket.list('customer-b')).toEqual([`library/shared/${file.body.id}`]);
    expect((await api('/v1/bucket', { key: keyB })).body.bucket).toBe('customer-b');
    expect((await api('/v1/bucket', { key: keyA })).body.bucket).toBe('customer-a');
    expect((await api(`/v1/documents/${file.body.id}`, { key: keyA })).status).toBe(404);
    expect((await api(`/v1/documents/${ids.shared}`, { key: keyB })).status).toBe(404);
    const rows = server.stack.db.prepare('SELECT tenant_id FROM bucket_registrations ORDER BY tenant_id').all();
    expect(rows).toHaveLength(2);
  });
});

describe('a bucket that fails after registration', () => {
  let kept: string;

  it('registers through the proxy', async () => {
    const res = await put(keyFlaky, {
      provider: 's3',
      bucket: 'customer-flaky',
      endpoint: bucket.proxyEndpoint,
      access_key_id: 'AKIAFLAKY',
      secret_access_key: SECRET_FLAKY,
    });
    expect(res.status).toBe(200);
    const file = await api('/v1/capture', {
      key: keyFlaky,
      body: fileItem('the flaky tenant stores a kestrel report'),
    });
    expect(file.status).toBe(201);
    kept = file.body.id;
  });

  it('refusing: the capture is rejected bucket_access_denied, nothing is left, and the state is failing', async () => {
    bucket.proxy.mode = 'refuse-all';
    const before = await bucket.list('customer-flaky');
    const res = await api('/v1/capture', { key: keyFlaky, body: fileItem('a refused file about puffins') });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      status: 'rejected',
      reject_code: 'bucket_access_denied',
      retryable: false,
      id: null,
    });
    expect(res.body.detail).toMatch(/refused the write \(AccessDenied \(HTTP 403\)\)/);
    const docs = await api('/v1/documents', { key: keyFlaky });
    expect(docs.body.documents.map((d: { id: string }) => d.id)).toEqual([kept]);
    expect((await api('/v1/grep?pattern=puffins', { key: keyFlaky })).body.results).toEqual([]);
    expect(await bucket.list('customer-flaky')).toEqual(before);
    expect(blobFiles(join(server.dataDir, 'blobs'))).toEqual([]);
    const health = await api('/v1/bucket', { key: keyFlaky });
    expect(health.body).toMatchObject({
      state: 'failing',
      last_error: 'write: refused (AccessDenied (HTTP 403))',
      last_error_at: expect.any(String),
    });
  });

  it('unreachable: the capture is rejected backend_unavailable (503), retryable, nothing left', async () => {
    bucket.proxy.mode = 'drop';
    const res = await api('/v1/capture', { key: keyFlaky, body: fileItem('an unreachable file about puffins') });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      reject_code: 'backend_unavailable',
      retryable: true,
      detail: 'the registered bucket could not be reached for the write (ECONNRESET); nothing was stored; retry',
    });
    expect(res.headers.get('retry-after')).toBe('1');
    expect((await api('/v1/documents', { key: keyFlaky })).body.count).toBe(1);
  });

  it('a delete the bucket refuses: the service side goes, the object is pending, and retried until gone', async () => {
    bucket.proxy.mode = 'refuse-delete';
    const res = await api(`/v1/documents/${kept}`, { key: keyFlaky, method: 'DELETE' });
    expect(res.body).toEqual({ id: kept, deleted: true, blobs_deleted: 0, blobs_pending: 1 });
    expect((await api(`/v1/documents/${kept}`, { key: keyFlaky })).status).toBe(404);
    expect(await bucket.list('customer-flaky')).toEqual([`library/shared/${kept}`]);
    expect((await api('/v1/bucket', { key: keyFlaky })).body).toMatchObject({ pending_deletes: 1, state: 'failing' });

    // Still refused at the next attempt: still pending (time moved on to the retry).
    const due = () =>
      server.stack.db.prepare("UPDATE bucket_pending_deletes SET next_attempt_at = '2000-01-01T00:00:00.000000'").run();
    due();
    await server.stack.bucketDeletes.sweep();
    expect(await bucket.list('customer-flaky')).toEqual([`library/shared/${kept}`]);
    expect(
      (server.stack.db.prepare('SELECT attempts FROM bucket_pending_deletes').get() as { attempts: number }).attempts,
    ).toBe(1);

    bucket.proxy.mode = 'pass';
    due();
    await server.stack.bucketDeletes.sweep();
    expect(await bucket.list('customer-flaky')).toEqual([]);
    expect((await api('/v1/bucket', { key: keyFlaky })).body.pending_deletes).toBe(0);
  });

  it('a write that works again sets the state back to ok, keeping the last error readable', async () => {
    const res = await api('/v1/capture', { key: keyFlaky, body: fileItem('puffins, at last') });
    expect(res.status).toBe(201);
    expect((await api('/v1/bucket', { key: keyFlaky })).body).toMatchObject({
      state: 'ok',
      last_error: expect.stringMatching(/^delete: refused/),
    });
  });
});

describe('unregistering', () => {
  it('keeps documents readable and their objects in the bucket; later captures go to the service', async () => {
    const before = await bucket.list('customer-a');
    const shared = before.find((k) => k.startsWith('tenant-a/shared/'))!;
    const id = shared.slice('tenant-a/shared/'.length);
    const res = await api('/v1/bucket', { key: keyA, method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: true });
    expect((await api('/v1/bucket', { key: keyA })).status).toBe(404);
    expect((await api(`/v1/documents/${id}`, { key: keyA })).body).toMatchObject({ storage: 'bucket' });
    expect((await api('/v1/grep?pattern=walrus', { key: keyA })).body.count).toBe(1);

    const later = await api('/v1/capture', { key: keyA, body: fileItem('after unregistering, a note about lynxes') });
    expect((await api(`/v1/documents/${later.body.id}`, { key: keyA })).body.storage).toBe('service');
    expect(blobFiles(join(server.dataDir, 'blobs'))).toEqual([later.body.id]);
    expect(await bucket.list('customer-a')).toEqual(before);

    // Deleting a document whose object is in a bucket no longer registered: the service side goes, the object is the customer's.
    const del = await api(`/v1/documents/${id}`, { key: keyA, method: 'DELETE' });
    expect(del.body).toEqual({ id, deleted: true, blobs_deleted: 0, blobs_pending: 0 });
    expect(await bucket.list('customer-a')).toEqual(before);
    // Tenant B is untouched.
    expect((await api('/v1/bucket', { key: keyB })).body.state).toBe('ok');
  });
});

describe('the trust policy where the machine has an AWS identity', () => {
  const recorded = async (
    target: TestServer,
    key: string,
    path: string,
    init: Parameters<TestServer['api']>[1] = {},
  ) => {
    const res = await target.api(path, { key, ...init });
    bodies.push(JSON.stringify(res.body));
    return res;
  };

  it('names the principal the operator sets in LIBRARY_BUCKET_PRINCIPAL_ARN', async () => {
    const principal = 'arn:aws:iam::111122223333:role/library-local';
    process.env.LIBRARY_BUCKET_PRINCIPAL_ARN = principal;
    const configured = await startTestServer({ embedder: new HashingEmbedder(), buckets: readLocalConfig().buckets });
    delete process.env.LIBRARY_BUCKET_PRINCIPAL_ARN;
    try {
      const key = await configured.newKey('configured');
      const res = await recorded(configured, key, '/v1/bucket/trust-policy');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        service_principal_arn: principal,
        external_id: expect.stringMatching(/^lib-/),
        trust_policy: trustPolicyOf(principal, res.body.external_id),
      });
    } finally {
      await configured.close();
    }
  });

  it("names the role of the machine's credentials, and role registrations assume roles with them", async () => {
    const sts = mockClient(STSClient);
    // Credentials in the environment only: the chain's first source.
    const machine = await startTestServer({
      embedder: new HashingEmbedder(),
      buckets: readLocalConfig().buckets,
      awsCredentials: { accessKeyId: 'AKIAMACHINEKEY', secretAccessKey: MACHINE_SECRET },
    });
    try {
      sts.on(GetCallerIdentityCommand).resolves({
        Arn: 'arn:aws:sts::111122223333:assumed-role/Developer/alice@example.com',
        Account: '111122223333',
      });
      sts.on(AssumeRoleCommand).rejects(
        Object.assign(new Error('not authorized to perform: sts:AssumeRole'), {
          name: 'AccessDenied',
          $metadata: { httpStatusCode: 403 },
        }),
      );
      const key = await machine.newKey('machine');
      const res = await recorded(machine, key, '/v1/bucket/trust-policy');
      const principal = 'arn:aws:iam::111122223333:role/Developer';
      expect(res.body).toEqual({
        service_principal_arn: principal,
        external_id: expect.stringMatching(/^lib-/),
        trust_policy: trustPolicyOf(principal, res.body.external_id),
      });
      expect((await recorded(machine, key, '/v1/bucket/trust-policy')).body.service_principal_arn).toBe(principal);
      expect(sts.commandCalls(GetCallerIdentityCommand)).toHaveLength(1);
      const role = await recorded(machine, key, '/v1/bucket', {
        method: 'PUT',
        body: { provider: 's3', bucket: 'customer-a', role_arn: 'arn:aws:iam::444455556666:role/library' },
      });
      expect(role.status).toBe(422);
      expect(role.body.error).toMatchObject({
        code: 'bucket_access_denied',
        message: expect.stringMatching(/^assume role/),
      });
      expect(sts.commandCalls(AssumeRoleCommand)[0]!.args[0].input).toMatchObject({
        RoleArn: 'arn:aws:iam::444455556666:role/library',
        ExternalId: res.body.external_id,
      });
    } finally {
      await machine.close();
      sts.restore();
    }
  });
});

describe('secrets', () => {
  it('never appear in an answer or a line the server logged', () => {
    expect(log.length).toBeGreaterThan(0);
    for (const secret of [SECRET_A, SECRET_B, SECRET_FLAKY, MACHINE_SECRET]) {
      expect(bodies.some((b) => b.includes(secret))).toBe(false);
      expect(log.includes(secret)).toBe(false);
    }
    const rows = server.stack.db.prepare('SELECT sealed_secret FROM bucket_registrations').all() as Array<{
      sealed_secret: string;
    }>;
    for (const row of rows)
      for (const secret of [SECRET_A, SECRET_B, SECRET_FLAKY]) expect(row.sealed_secret).not.toContain(secret);
  });
});

describe('endpoints where private addresses are not allowed', () => {
  let strict: TestServer;
  let key: string;
  beforeAll(async () => {
    strict = await startTestServer({ embedder: new HashingEmbedder() });
    key = await strict.newKey('strict');
  }, 60_000);
  afterAll(() => strict.close());

  it('refuses plain http, loopback, private and metadata addresses and names resolving to them, naming endpoint', async () => {
    const base = { provider: 's3', bucket: 'customer-a', access_key_id: 'AKIATENANTA', secret_access_key: SECRET_A };
    expect(
      (await strict.api('/v1/bucket', { key, method: 'PUT', body: { ...base, endpoint: bucket.endpoint } })).body.error
        .message,
    ).toMatch(/^endpoint: must use https/);
    // One message for every refusal, a literal or a name: which address a name resolves to is not told (no DNS oracle).
    const generic =
      /^endpoint: the endpoint is not a public address, or its name resolves to one that is not; an endpoint must be https to a public address/;
    const refused = [
      'https://127.0.0.1:9',
      'https://10.1.2.3',
      'https://192.168.0.10',
      'https://169.254.169.254',
      'https://[::1]',
      'https://[fd00:ec2::254]',
      'https://[::ffff:127.0.0.1]',
      'https://[::ffff:0:a00:1]',
      'https://[64:ff9b:1::a00:1]',
      'https://[fec0::1]',
      'https://localhost:9',
    ];
    const messages = new Set<string>();
    for (const endpoint of refused) {
      const res = await strict.api('/v1/bucket', { key, method: 'PUT', body: { ...base, endpoint } });
      expect(res.status, endpoint).toBe(422);
      expect(res.body.error.code, endpoint).toBe('invalid_request');
      expect(res.body.error.message, endpoint).toMatch(generic);
      expect(res.body.error.message, endpoint).not.toMatch(
        /127\.0\.0\.1|::1|10\.|192\.168|169\.254|loopback address|RFC 1918/,
      );
      messages.add(res.body.error.message);
    }
    expect(messages.size).toBe(1);
    expect((await strict.api('/v1/bucket', { key })).status).toBe(404);
  });
});

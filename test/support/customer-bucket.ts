import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/**
 * A customer's bucket for tests: s3rver (a real S3 API over a folder) on
 * loopback, with key pairs of our choosing (s3rver checks signatures), and
 * a tiny proxy in front of it that can refuse deletes, refuse everything
 * (403 AccessDenied), or drop connections, the ways a real bucket fails
 * after registration.
 */
export interface CustomerBucket {
  /** s3rver itself. */
  endpoint: string;
  /** The proxy in front of it (behaviour set by `proxy.mode`). */
  proxyEndpoint: string;
  proxy: { mode: 'pass' | 'refuse-delete' | 'refuse-all' | 'drop' };
  /**
   * Key pairs the proxy checks SigV4 signatures of (s3rver checks the
   * access key id but not v4 signatures): a wrong secret is refused
   * SignatureDoesNotMatch through the proxy, as S3 refuses it.
   */
  verifiedKeys: Map<string, string>;
  /** Adds a key pair s3rver accepts. */
  addKey(accessKeyId: string, secret: string): void;
  /** Every object key in a bucket, sorted. */
  list(bucket: string, prefix?: string): Promise<string[]>;
  read(bucket: string, key: string): Promise<Buffer>;
  close(): Promise<void>;
}

const ADMIN = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

const s3Error = (code: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`;

const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text).digest();
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Whether a SigV4-signed request's signature holds under this secret (header auth, S3's single URI encoding). */
function signatureHolds(
  method: string,
  url: string,
  headers: Record<string, string | string[] | undefined>,
  secret: string,
): boolean {
  const auth = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/([^,]+), ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]+)$/.exec(
    String(headers.authorization ?? ''),
  );
  if (!auth) return false;
  const [, , scope, signed, signature] = auth as unknown as [string, string, string, string, string];
  const [path, query = ''] = url.split('?');
  const canonicalQuery = query
    .split('&')
    .filter(Boolean)
    .map((p) => (p.includes('=') ? p : `${p}=`))
    .sort()
    .join('&');
  const names = signed.split(';');
  const canonicalHeaders = names
    .map(
      (n) =>
        `${n}:${String(headers[n] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const request = [
    method,
    path,
    canonicalQuery,
    canonicalHeaders,
    signed,
    String(headers['x-amz-content-sha256'] ?? 'UNSIGNED-PAYLOAD'),
  ].join('\n');
  const toSign = ['AWS4-HMAC-SHA256', String(headers['x-amz-date']), scope, sha256(request)].join('\n');
  const [date, region, service] = scope.split('/') as [string, string, string];
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
  return hmac(key, toSign).toString('hex') === signature;
}

export async function startCustomerBucket(buckets: string[]): Promise<CustomerBucket> {
  const directory = mkdtempSync(join(tmpdir(), 'customer-bucket-'));
  const s3rver = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const { port } = await s3rver.run();
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver's one account: its registry of key pairs is module state, shared with the server started above.
  const account = createRequire(import.meta.url)('s3rver/lib/models/account.js') as {
    DUMMY_ACCOUNT: { createKeyPair(id: string, secret: string): void };
  };
  const admin = new S3Client({ endpoint, region: 'us-east-1', credentials: ADMIN, forcePathStyle: true });

  const proxy: CustomerBucket['proxy'] = { mode: 'pass' };
  const verifiedKeys = new Map<string, string>();
  const proxyServer: Server = createServer((incoming, outgoing) => {
    if (proxy.mode === 'drop') return incoming.socket.destroy();
    const keyId = /Credential=([^/]+)\//.exec(String(incoming.headers.authorization ?? ''))?.[1];
    const secret = keyId ? verifiedKeys.get(keyId) : undefined;
    if (
      secret !== undefined &&
      !signatureHolds(incoming.method ?? 'GET', incoming.url ?? '/', incoming.headers, secret)
    ) {
      incoming.resume();
      outgoing.writeHead(403, { 'content-type': 'application/xml' }).end(s3Error('SignatureDoesNotMatch'));
      return;
    }
    if (proxy.mode === 'refuse-all' || (proxy.mode === 'refuse-delete' && incoming.method === 'DELETE')) {
      incoming.resume();
      outgoing.writeHead(403, { 'content-type': 'application/xml' }).end(s3Error('AccessDenied'));
      return;
    }
    // Headers go as they came (Host included), so the request's signature still holds at s3rver.
    const upstream = request(
      { host: '127.0.0.1', port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxyServer.listen(0, '127.0.0.1', resolve));
  const proxyPort = (proxyServer.address() as AddressInfo).port;

  return {
    endpoint,
    proxyEndpoint: `http://127.0.0.1:${proxyPort}`,
    proxy,
    verifiedKeys,
    addKey: (id, secret) => account.DUMMY_ACCOUNT.createKeyPair(id, secret),
    async list(bucket, prefix) {
      const out = await admin.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
      return (out.Contents ?? []).map((o) => o.Key!).sort();
    },
    async read(bucket, key) {
      const out = await admin.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return Buffer.from(await out.Body!.transformToByteArray());
    },
    async close() {
      proxyServer.closeAllConnections();
      await new Promise((resolve) => proxyServer.close(resolve));
      admin.destroy();
      await s3rver.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** A loopback port nothing listens on. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

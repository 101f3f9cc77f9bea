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
  /** Adds a key pair s3rver accepts. */
  addKey(accessKeyId: string, secret: string): void;
  /** Every object key in a bucket, sorted. */
  list(bucket: string, prefix?: string): Promise<string[]>;
  read(bucket: string, key: string): Promise<Buffer>;
  close(): Promise<void>;
}

const ADMIN = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

const ACCESS_DENIED = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>';

export async function startCustomerBucket(buckets: string[]): Promise<CustomerBucket> {
  const directory = mkdtempSync(join(tmpdir(), 'customer-bucket-'));
  const s3rver = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: buckets.map((name) => ({ name })) });
  const { port } = await s3rver.run();
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver's one account: its registry of key pairs is module state, shared with the server started above.
  const account = createRequire(import.meta.url)('s3rver/lib/models/account.js') as { DUMMY_ACCOUNT: { createKeyPair(id: string, secret: string): void } };
  const admin = new S3Client({ endpoint, region: 'us-east-1', credentials: ADMIN, forcePathStyle: true });

  const proxy: CustomerBucket['proxy'] = { mode: 'pass' };
  const proxyServer: Server = createServer((incoming, outgoing) => {
    if (proxy.mode === 'drop') return incoming.socket.destroy();
    if (proxy.mode === 'refuse-all' || (proxy.mode === 'refuse-delete' && incoming.method === 'DELETE')) {
      incoming.resume();
      outgoing.writeHead(403, { 'content-type': 'application/xml' }).end(ACCESS_DENIED);
      return;
    }
    // Headers go as they came (Host included), so the request's signature still holds at s3rver.
    const upstream = request({ host: '127.0.0.1', port, method: incoming.method, path: incoming.url, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxyServer.listen(0, '127.0.0.1', resolve));
  const proxyPort = (proxyServer.address() as AddressInfo).port;

  return {
    endpoint,
    proxyEndpoint: `http://127.0.0.1:${proxyPort}`,
    proxy,
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

import { request } from 'node:https';
import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { classifyBucketError } from '../../lambdas/adapters/caller-bucket/classify.js';
import { S3BucketConnector } from '../../lambdas/adapters/caller-bucket/connector.js';
import { ForbiddenEndpointError, guardedHttpsAgent, guardedLookup, refusedAddress } from '../../lambdas/adapters/caller-bucket/endpoint-guard.js';
import { BucketError } from '../../lambdas/core/errors.js';

describe('the SSRF guard: which addresses an endpoint may reach', () => {
  const refused: Array<[string, RegExp]> = [
    ['127.0.0.1', /loopback/], ['127.255.0.9', /loopback/], ['::1', /loopback/],
    ['10.0.0.1', /RFC 1918/], ['172.16.5.4', /RFC 1918/], ['172.31.255.255', /RFC 1918/], ['192.168.1.1', /RFC 1918/],
    ['fc00::1', /unique-local/], ['fd12:3456::1', /unique-local/],
    ['169.254.10.10', /link-local/], ['fe80::1', /link-local/],
    ['169.254.169.254', /metadata/], ['fd00:ec2::254', /metadata/],
    ['::ffff:127.0.0.1', /loopback address \(in IPv6 form\)/], ['::ffff:7f00:1', /loopback address \(in IPv6 form\)/],
    ['::ffff:10.0.0.1', /RFC 1918.*IPv6 form/], ['::ffff:169.254.169.254', /metadata/], ['::ffff:a9fe:a9fe', /metadata/],
    ['::127.0.0.1', /loopback.*IPv6 form/], ['64:ff9b::a00:1', /RFC 1918.*IPv6 form/], ['2002:c0a8:101::1', /RFC 1918.*IPv6 form/],
    ['0.0.0.0', /unspecified/], ['::', /unspecified/], ['100.64.0.1', /carrier-grade/], ['224.0.0.1', /multicast/],
  ];
  for (const [address, reason] of refused) {
    it(`refuses ${address}`, () => expect(refusedAddress(address)).toMatch(reason));
  }

  it('lets public addresses through, IPv4 and IPv6', () => {
    for (const address of ['8.8.8.8', '52.216.0.1', '104.18.0.1', '2606:4700::6810:84e5', '::ffff:8.8.8.8', '172.32.0.1', '11.0.0.1']) {
      expect(refusedAddress(address), address).toBeNull();
    }
  });

  it('with private endpoints allowed (local testing), still refuses the metadata addresses', () => {
    expect(refusedAddress('127.0.0.1', { allowPrivate: true })).toBeNull();
    expect(refusedAddress('10.0.0.1', { allowPrivate: true })).toBeNull();
    expect(refusedAddress('169.254.169.254', { allowPrivate: true })).toMatch(/metadata/);
    expect(refusedAddress('::ffff:169.254.169.254', { allowPrivate: true })).toMatch(/metadata/);
  });

  it('reads an IPv6 address with a zone (%eth0) as the address, its dotted quad included, in linear time', () => {
    expect(refusedAddress('fe80::1%eth0')).toMatch(/link-local/);
    expect(refusedAddress('::ffff:127.0.0.1%eth0')).toMatch(/loopback address \(in IPv6 form\)/);
    expect(refusedAddress('::ffff:10.0.0.1%1.2.3.4')).toMatch(/RFC 1918.*IPv6 form/);
    expect(refusedAddress('64:ff9b::10.0.0.1%z')).toMatch(/RFC 1918.*IPv6 form/);
    expect(refusedAddress('::ffff:8.8.8.8%en0')).toBeNull();
    expect(refusedAddress('1::2:3:4:5:6:1.2.3.4')).toBe('not an IP address');
    const started = performance.now();
    expect(refusedAddress(`::ffff:10.0.0.1%${'1.'.repeat(25_000)}`)).toMatch(/RFC 1918.*IPv6 form/);
    expect(refusedAddress(`::${'1'.repeat(50_000)}`)).toBe('not an IP address');
    expect(performance.now() - started).toBeLessThan(100);
  });
});

const lookupWith = (addresses: LookupAddress[]) => guardedLookup({ resolve: (_name, callback) => callback(null, addresses) });
const resolveOnce = (lookup: ReturnType<typeof guardedLookup>, all: boolean) =>
  new Promise<{ error: unknown; result: unknown }>((resolve) => {
    (lookup as unknown as (h: string, o: object, cb: (e: unknown, r?: unknown) => void) => void)('bucket.example.com', { all }, (error, result) => resolve({ error, result }));
  });

describe('the guard at connect time', () => {
  it('refuses a name that resolves to loopback, and one with any private address among public ones', async () => {
    const loopback = await resolveOnce(lookupWith([{ address: '127.0.0.1', family: 4 }]), false);
    expect(loopback.error).toBeInstanceOf(ForbiddenEndpointError);
    expect(String((loopback.error as Error).message)).toBe('bucket.example.com resolves to 127.0.0.1, a loopback address');
    const mixed = await resolveOnce(lookupWith([{ address: '52.216.0.1', family: 4 }, { address: '10.0.0.7', family: 4 }]), true);
    expect(mixed.error).toBeInstanceOf(ForbiddenEndpointError);
    const fine = await resolveOnce(lookupWith([{ address: '52.216.0.1', family: 4 }]), true);
    expect(fine).toEqual({ error: null, result: [{ address: '52.216.0.1', family: 4 }] });
  });

  it('checks every connection, so a name rebinding to a private address after a first public answer is refused', async () => {
    let answers = 0;
    const rebinding = guardedLookup({ resolve: (_name, callback) => callback(null, [{ address: answers++ === 0 ? '52.216.0.1' : '169.254.169.254', family: 4 }]) });
    expect((await resolveOnce(rebinding, false)).error).toBeNull();
    expect((await resolveOnce(rebinding, false)).error).toBeInstanceOf(ForbiddenEndpointError);
  });

  const connect = (url: string) =>
    new Promise<unknown>((resolve) => {
      const req = request(url, { agent: guardedHttpsAgent() }, () => resolve(null));
      req.on('error', resolve);
      req.end();
    });

  it('refuses an address literal and `localhost` through the https agent, before any byte is sent', async () => {
    expect(await connect('https://127.0.0.1:9/')).toBeInstanceOf(ForbiddenEndpointError);
    expect(await connect('https://[::1]:9/')).toBeInstanceOf(ForbiddenEndpointError);
    expect(await connect('https://169.254.169.254/')).toBeInstanceOf(ForbiddenEndpointError);
    const local = await connect('https://localhost:9/');
    expect(local).toBeInstanceOf(ForbiddenEndpointError);
    expect((local as Error).message).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), a loopback address$/);
  });

  it('reaches the S3 client as a BucketError forbidden_endpoint', async () => {
    const store = new S3BucketConnector().open({
      tenantId: 't', provider: 's3', bucket: 'b', region: 'us-east-1', endpoint: 'https://localhost:9',
      auth: { kind: 'keys', accessKeyId: 'AKIA', secretAccessKey: 'secret' },
    });
    const failure = await store.put('k', Buffer.from('x'), 'text/plain').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(BucketError);
    expect(failure).toMatchObject({ kind: 'forbidden_endpoint', during: 'request' });
  });
});

describe('classifying bucket failures', () => {
  const sdk = (name: string, status?: number) => Object.assign(new Error('message with a signature abc123'), { name, $metadata: { httpStatusCode: status } });
  it('refusals are denied, with code and status only', () => {
    expect(classifyBucketError(sdk('AccessDenied', 403))).toMatchObject({ kind: 'denied', detail: 'AccessDenied (HTTP 403)' });
    expect(classifyBucketError(sdk('NoSuchBucket', 404))).toMatchObject({ kind: 'denied', detail: 'NoSuchBucket (HTTP 404)' });
    expect(classifyBucketError(sdk('PermanentRedirect', 301)).kind).toBe('denied');
  });
  it('no answer, 5xx and throttling are unreachable', () => {
    expect(classifyBucketError(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }))).toMatchObject({ kind: 'unreachable', detail: 'ECONNREFUSED' });
    expect(classifyBucketError(sdk('InternalError', 500)).kind).toBe('unreachable');
    expect(classifyBucketError(sdk('SlowDown', 503)).kind).toBe('unreachable');
    expect(classifyBucketError(sdk('TooManyRequests', 429)).kind).toBe('unreachable');
  });
  it('never carries the error message', () => {
    expect(classifyBucketError(sdk('AccessDenied', 403)).message).not.toContain('abc123');
  });
});

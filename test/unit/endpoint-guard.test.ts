import type { LookupAddress } from 'node:dns';
import { request } from 'node:https';
import { describe, expect, it } from 'vitest';
import { classifyBucketError } from '../../lambdas/adapters/caller-bucket/classify.js';
import { S3BucketConnector } from '../../lambdas/adapters/caller-bucket/connector.js';
import {
  type EndpointRefusal,
  ForbiddenEndpointError,
  guardedHttpsAgent,
  guardedLookup,
  refusedAddress,
} from '../../lambdas/adapters/caller-bucket/endpoint-guard.js';
import { BucketError, FORBIDDEN_ENDPOINT_DETAIL } from '../../lambdas/core/errors.js';

describe('the SSRF guard: which addresses an endpoint may reach', () => {
  const refused: Array<[string, RegExp]> = [
    ['127.0.0.1', /loopback/],
    ['127.255.0.9', /loopback/],
    ['::1', /loopback/],
    ['10.0.0.1', /RFC 1918/],
    ['172.16.5.4', /RFC 1918/],
    ['172.31.255.255', /RFC 1918/],
    ['192.168.1.1', /RFC 1918/],
    ['fc00::1', /unique-local/],
    ['fd12:3456::1', /unique-local/],
    ['169.254.10.10', /link-local/],
    ['fe80::1', /link-local/],
    ['fe80::1%eth0', /link-local/],
    ['169.254.169.254', /metadata/],
    ['fd00:ec2::254', /metadata/],
    ['::ffff:127.0.0.1', /loopback address \(in IPv6 form\)/],
    ['::ffff:7f00:1', /loopback address \(in IPv6 form\)/],
    ['::ffff:10.0.0.1', /RFC 1918.*IPv6 form/],
    ['::ffff:169.254.169.254', /metadata/],
    ['::ffff:a9fe:a9fe', /metadata/],
    ['::127.0.0.1', /loopback.*IPv6 form/],
    ['64:ff9b::a00:1', /RFC 1918.*IPv6 form/],
    ['2002:c0a8:101::1', /RFC 1918.*IPv6 form/],
    ['0.0.0.0', /unspecified/],
    ['::', /unspecified/],
    ['100.64.0.1', /carrier-grade/],
    ['224.0.0.1', /multicast/],
    // IPv4 documentation ranges and the deprecated 6to4 relay anycast block.
    ['192.0.2.10', /documentation/],
    ['198.51.100.7', /documentation/],
    ['203.0.113.200', /documentation/],
    ['192.88.99.1', /6to4 relay/],
    ['255.255.255.255', /reserved/],
    ['198.19.0.1', /benchmarking/],
    ['192.0.0.8', /IETF protocol/],
    // IPv4-translated (SIIT, RFC 2765): ::ffff:0:a.b.c.d, in either notation.
    ['::ffff:0:127.0.0.1', /loopback address \(in IPv6 form\)/],
    ['::ffff:0:7f00:1', /loopback address \(in IPv6 form\)/],
    ['::ffff:0:10.1.2.3', /RFC 1918.*IPv6 form/],
    ['::ffff:0:a9fe:a9fe', /metadata/],
    // NAT64 local-use prefix (RFC 8215): its translator is the operator's own, whatever address it embeds.
    ['64:ff9b:1::a00:1', /local-use IPv4\/IPv6 translation/],
    ['64:ff9b:1::808:808', /local-use IPv4\/IPv6 translation/],
    ['64:ff9b:1:ffff::1', /local-use/],
    // Site-local (deprecated, RFC 3879).
    ['fec0::1', /site-local/],
    ['feff:ffff::1', /site-local/],
    // Teredo (2001::/32): the server's IPv4, and the client's stored inverted (10.0.0.1 is f5ff:fffe; 127.0.0.1 is 80ff:fffe).
    ['2001:0:4136:e378:8000:63bf:f5ff:fffe', /RFC 1918.*IPv6 form/],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', /loopback.*IPv6 form/],
    ['2001:0:a00:1:8000:63bf:3fff:fdd2', /RFC 1918.*IPv6 form/],
    ['2001:0:4136:e378:8000:63bf:5601:5601', /metadata/],
    // ISATAP interface ids carrying a refused IPv4, under a global prefix.
    ['2600:1f18::5efe:10.0.0.5', /RFC 1918.*IPv6 form/],
    ['2600:1f18::200:5efe:a9fe:a9fe', /metadata/],
    // The rest of the IANA IPv6 special-purpose registry that is not globally reachable.
    ['100::1', /discard-only/],
    ['100:0:0:1::1', /dummy/],
    ['2001:db8::1', /documentation/],
    ['3fff:123::1', /documentation/],
    ['2001:2::1', /benchmarking/],
    ['2001:10::1', /IETF protocol/],
    ['2001:100::1', /IETF protocol/],
    ['5f00::1', /segment routing/],
    // Outside 2000::/3: reserved by the IETF, never on the internet.
    ['4000::1', /reserved/],
    ['::2:1', /reserved|unspecified/],
    ['e000::1', /reserved/],
    ['1::1', /reserved/],
  ];
  for (const [address, reason] of refused) {
    it(`refuses ${address}`, () => expect(refusedAddress(address)).toMatch(reason));
  }

  it('lets public addresses through, IPv4 and IPv6, in every form that carries a public IPv4', () => {
    const allowed = [
      '8.8.8.8',
      '52.216.0.1',
      '104.18.0.1',
      '2606:4700::6810:84e5',
      '::ffff:8.8.8.8',
      '172.32.0.1',
      '11.0.0.1',
      // Next to the refused ranges: just outside each.
      '192.0.3.1',
      '198.51.99.255',
      '203.0.114.1',
      '192.88.100.1',
      '100.128.0.1',
      '2001:db9::1',
      '2001:200::1',
      '3fff:1000::1',
      // SIIT, NAT64 (well-known prefix) and 6to4 to a public IPv4.
      '::ffff:0:8.8.8.8',
      '::ffff:0:808:808',
      '64:ff9b::8.8.8.8',
      '2002:808:808::1',
      // Teredo with a public server and client (the RFC 4380 example: server 65.54.227.120, client 192.0.2.45 → a public one here, 8.8.4.4).
      '2001:0:4136:e378:8000:63bf:f7f7:fbfb',
      // The globally reachable assignments inside 2001::/23 (PCP and TURN anycast, AMT, AS112, ORCHIDv2, drone ids).
      '2001:1::1',
      '2001:1::2',
      '2001:1::3',
      '2001:3::1',
      '2001:4:112::1',
      '2001:20::1',
      '2001:30::1',
      // An ISATAP interface id carrying a public IPv4 under a global prefix.
      '2600:1f18::5efe:8.8.8.8',
      // Global unicast at the edges of 2000::/3.
      '2000::1',
      '3ffe:ffff::1',
    ];
    for (const address of allowed) expect(refusedAddress(address), address).toBeNull();
  });

  it('refuses a Teredo, ISATAP or link-local address by the part that is refused even when the other is public', () => {
    // Public server, private client; private server, public client.
    expect(refusedAddress('2001:0:4136:e378:8000:63bf:f5ff:fffe')).not.toBeNull();
    expect(refusedAddress('2001:0:a00:1:8000:63bf:f7f7:fbfb')).toMatch(/RFC 1918/);
    // ISATAP with a public IPv4 under a link-local prefix: the prefix decides.
    expect(refusedAddress('fe80::5efe:8.8.8.8')).toMatch(/link-local/);
  });

  it('with private endpoints allowed (local testing), still refuses the metadata addresses in every form', () => {
    expect(refusedAddress('127.0.0.1', { allowPrivate: true })).toBeNull();
    expect(refusedAddress('10.0.0.1', { allowPrivate: true })).toBeNull();
    expect(refusedAddress('169.254.169.254', { allowPrivate: true })).toMatch(/metadata/);
    expect(refusedAddress('::ffff:169.254.169.254', { allowPrivate: true })).toMatch(/metadata/);
    expect(refusedAddress('::ffff:0:169.254.169.254', { allowPrivate: true })).toMatch(/metadata/);
    expect(refusedAddress('2001:0:4136:e378:8000:63bf:5601:5601', { allowPrivate: true })).toMatch(/metadata/);
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

const lookupWith = (addresses: LookupAddress[], onRefused?: (refusal: EndpointRefusal) => void) =>
  guardedLookup({ resolve: (_name, callback) => callback(null, addresses), onRefused });
const resolveOnce = (lookup: ReturnType<typeof guardedLookup>, all: boolean) =>
  new Promise<{ error: unknown; result: unknown }>((resolve) => {
    (lookup as unknown as (h: string, o: object, cb: (e: unknown, r?: unknown) => void) => void)(
      'bucket.example.com',
      { all },
      (error, result) => resolve({ error, result }),
    );
  });

describe('the guard at connect time', () => {
  it('refuses a name that resolves to loopback, and one with any private address among public ones', async () => {
    const refusals: EndpointRefusal[] = [];
    const loopback = await resolveOnce(
      lookupWith([{ address: '127.0.0.1', family: 4 }], (r) => refusals.push(r)),
      false,
    );
    expect(loopback.error).toBeInstanceOf(ForbiddenEndpointError);
    // The error's message is generic (it may reach the caller); the operator's log is told what and why.
    expect(String((loopback.error as Error).message)).toBe(FORBIDDEN_ENDPOINT_DETAIL);
    expect(String((loopback.error as Error).message)).not.toContain('127.0.0.1');
    expect(refusals).toEqual([{ host: 'bucket.example.com', address: '127.0.0.1', reason: 'a loopback address' }]);
    const mixed = await resolveOnce(
      lookupWith([
        { address: '52.216.0.1', family: 4 },
        { address: '10.0.0.7', family: 4 },
      ]),
      true,
    );
    expect(mixed.error).toBeInstanceOf(ForbiddenEndpointError);
    const fine = await resolveOnce(lookupWith([{ address: '52.216.0.1', family: 4 }]), true);
    expect(fine).toEqual({ error: null, result: [{ address: '52.216.0.1', family: 4 }] });
  });

  it('checks every connection, so a name rebinding to a private address after a first public answer is refused', async () => {
    let answers = 0;
    const rebinding = guardedLookup({
      resolve: (_name, callback) =>
        callback(null, [{ address: answers++ === 0 ? '52.216.0.1' : '169.254.169.254', family: 4 }]),
    });
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
    expect(local).toMatchObject({ host: 'localhost', reason: 'a loopback address' });
    expect((local as ForbiddenEndpointError).address).toMatch(/^(127\.0\.0\.1|::1)$/);
    expect((local as Error).message).toBe(FORBIDDEN_ENDPOINT_DETAIL);
  });

  it('reaches the S3 client as a BucketError forbidden_endpoint with a generic detail, the operator told the address', async () => {
    const refusals: EndpointRefusal[] = [];
    const store = new S3BucketConnector({ onForbiddenEndpoint: (r) => refusals.push(r) }).open({
      tenantId: 't',
      provider: 's3',
      bucket: 'b',
      region: 'us-east-1',
      endpoint: 'https://localhost:9',
      auth: { kind: 'keys', accessKeyId: 'AKIA', secretAccessKey: 'secret' },
    });
    const failure = await store.put('k', Buffer.from('x'), 'text/plain').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(BucketError);
    expect(failure).toMatchObject({ kind: 'forbidden_endpoint', during: 'request', detail: FORBIDDEN_ENDPOINT_DETAIL });
    expect(String((failure as Error).message)).not.toMatch(/127\.0\.0\.1|::1/);
    expect(refusals[0]).toMatchObject({ host: 'localhost', reason: 'a loopback address' });
  });
});

describe('classifying bucket failures', () => {
  const sdk = (name: string, status?: number) =>
    Object.assign(new Error('message with a signature abc123'), { name, $metadata: { httpStatusCode: status } });
  it('refusals are denied, with code and status only', () => {
    expect(classifyBucketError(sdk('AccessDenied', 403))).toMatchObject({
      kind: 'denied',
      detail: 'AccessDenied (HTTP 403)',
    });
    expect(classifyBucketError(sdk('NoSuchBucket', 404))).toMatchObject({
      kind: 'denied',
      detail: 'NoSuchBucket (HTTP 404)',
    });
    expect(classifyBucketError(sdk('PermanentRedirect', 301)).kind).toBe('denied');
  });
  it('no answer, 5xx and throttling are unreachable', () => {
    expect(classifyBucketError(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }))).toMatchObject({
      kind: 'unreachable',
      detail: 'ECONNREFUSED',
    });
    expect(classifyBucketError(sdk('InternalError', 500)).kind).toBe('unreachable');
    expect(classifyBucketError(sdk('SlowDown', 503)).kind).toBe('unreachable');
    expect(classifyBucketError(sdk('TooManyRequests', 429)).kind).toBe('unreachable');
  });
  it('a guard refusal is the same generic detail whatever was refused, found through causes', () => {
    const nested = Object.assign(new Error('wrapped'), {
      cause: new ForbiddenEndpointError('internal.example.com', '10.9.8.7', 'a private (RFC 1918) address'),
    });
    const failure = classifyBucketError(nested);
    expect(failure).toMatchObject({ kind: 'forbidden_endpoint', detail: FORBIDDEN_ENDPOINT_DETAIL });
    expect(failure.message).not.toMatch(/10\.9\.8\.7|internal\.example\.com|RFC 1918/);
  });
  it('never carries the error message', () => {
    expect(classifyBucketError(sdk('AccessDenied', 403)).message).not.toContain('abc123');
  });
});

import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * The SSRF guard for caller-supplied bucket endpoints (OWASP's SSRF
 * prevention: check the address actually connected to, not the name).
 * Pure Node, shared by both stacks: the agents below check every address a
 * connection is about to use, after DNS resolution, so a name that resolves
 * (or rebinds) to a refused address is refused too. The S3 SDK does not
 * follow HTTP redirects (a 301 is an error to it), so there is no second hop
 * to check; any new connection goes through the same agent anyway.
 */

/**
 * The error a refused connection fails with; classify.ts maps it to
 * BucketError('forbidden_endpoint') with a generic detail. The host, the
 * address and the reason are for the operator's log only (the guard's
 * `onRefused`): told to the caller, they would say which private address a
 * name resolves to (a DNS oracle).
 */
export class ForbiddenEndpointError extends Error {
  readonly code = 'ERR_FORBIDDEN_ENDPOINT';
  constructor(
    readonly host: string,
    readonly address: string,
    readonly reason: string,
  ) {
    super('the endpoint is not a public address, or its name resolves to one that is not');
    this.name = 'ForbiddenEndpointError';
  }
}

/** What the guard refused, for the operator's log (never for the caller). */
export interface EndpointRefusal {
  host: string;
  address: string;
  reason: string;
}

export interface GuardOptions {
  /** Local stack only, the operator's choice: loopback and private addresses (the metadata addresses stay refused). */
  allowPrivate?: boolean;
  /** Told each refusal with its detail, for the operator's log. */
  onRefused?: (refusal: EndpointRefusal) => void;
}

const METADATA = new BlockList();
METADATA.addAddress('169.254.169.254', 'ipv4');
METADATA.addAddress('fd00:ec2::254', 'ipv6');

type Range = [network: string, bits: number, family: 'ipv4' | 'ipv6', reason: string];

/**
 * Ranges a caller's endpoint may not reach, each with the reason the
 * operator's log gives; the first that holds the address names it. From the
 * IANA IPv4 and IPv6 special-purpose address registries (every block they
 * mark not globally reachable), plus multicast, the reserved IPv4 class E,
 * the deprecated site-local fec0::/10 and the 6to4 relay anycast block.
 * IPv6 outside 2000::/3 that no entry names is refused below as well.
 */
const RANGES: Range[] = [
  ['0.0.0.0', 8, 'ipv4', 'an unspecified ("this network") address'],
  ['127.0.0.0', 8, 'ipv4', 'a loopback address'],
  ['10.0.0.0', 8, 'ipv4', 'a private (RFC 1918) address'],
  ['172.16.0.0', 12, 'ipv4', 'a private (RFC 1918) address'],
  ['192.168.0.0', 16, 'ipv4', 'a private (RFC 1918) address'],
  ['100.64.0.0', 10, 'ipv4', 'a shared (carrier-grade NAT) address'],
  ['169.254.0.0', 16, 'ipv4', 'a link-local address'],
  ['192.0.0.0', 24, 'ipv4', 'an IETF protocol address'],
  ['192.0.2.0', 24, 'ipv4', 'a documentation address'],
  ['198.51.100.0', 24, 'ipv4', 'a documentation address'],
  ['203.0.113.0', 24, 'ipv4', 'a documentation address'],
  ['192.88.99.0', 24, 'ipv4', 'a 6to4 relay anycast address (deprecated)'],
  ['198.18.0.0', 15, 'ipv4', 'a benchmarking address'],
  ['224.0.0.0', 4, 'ipv4', 'a multicast address'],
  ['240.0.0.0', 4, 'ipv4', 'a reserved address'],
  ['::', 128, 'ipv6', 'an unspecified address'],
  ['::1', 128, 'ipv6', 'a loopback address'],
  ['64:ff9b:1::', 48, 'ipv6', 'a local-use IPv4/IPv6 translation address'],
  ['100::', 64, 'ipv6', 'a discard-only address'],
  ['100:0:0:1::', 64, 'ipv6', 'a dummy address'],
  ['2001:2::', 48, 'ipv6', 'a benchmarking address'],
  ['2001:db8::', 32, 'ipv6', 'a documentation address'],
  ['2001::', 23, 'ipv6', 'an IETF protocol address'],
  ['3fff::', 20, 'ipv6', 'a documentation address'],
  ['5f00::', 16, 'ipv6', 'a segment routing (SRv6) address'],
  ['fc00::', 7, 'ipv6', 'a unique-local (private) address'],
  ['fe80::', 10, 'ipv6', 'a link-local address'],
  ['fec0::', 10, 'ipv6', 'a site-local address (deprecated)'],
  ['ff00::', 8, 'ipv6', 'a multicast address'],
];
const BLOCKS = RANGES.map(([net, bits, family, reason]) => {
  const list = new BlockList();
  list.addSubnet(net, bits, family);
  return { list, family, reason };
});

/** Inside 2001::/23, the assignments IANA marks globally reachable (anycast services, AMT, AS112, ORCHIDv2, drone ids). */
const GLOBAL_IN_IETF_BLOCK = new BlockList();
for (const address of ['2001:1::1', '2001:1::2', '2001:1::3']) GLOBAL_IN_IETF_BLOCK.addAddress(address, 'ipv6');
for (const [net, bits] of [
  ['2001:3::', 32],
  ['2001:4:112::', 48],
  ['2001:20::', 28],
  ['2001:30::', 28],
] as const)
  GLOBAL_IN_IETF_BLOCK.addSubnet(net, bits, 'ipv6');

/** Global unicast: the only IPv6 space IANA allocates for the internet (everything else is special-purpose or reserved). */
const GLOBAL_UNICAST = new BlockList();
GLOBAL_UNICAST.addSubnet('2000::', 3, 'ipv6');

/**
 * The 16 bytes of an IPv6 address (any textual form, an embedded dotted quad included).
 * `address` is one that isIP() calls IPv6, whose zone ('%eth0') holds no '%' and no line break.
 */
function ipv6Bytes(address: string): number[] {
  // The zone is cut at its '%' by position: /%.*$/ retried a run of '%' from each one (quadratic).
  const zone = address.indexOf('%');
  let text = zone === -1 ? address : address.slice(0, zone);
  // (?<!\d): the quad is tried from the first digit of a run only, not again from each later one.
  const dotted = /(?<!\d)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number);
    text = `${text.slice(0, -dotted[1]!.length)}${((a! << 8) | b!).toString(16)}:${((c! << 8) | d!).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return groups.flatMap((g) => {
    const n = parseInt(g || '0', 16);
    return [n >> 8, n & 0xff];
  });
}

/**
 * The IPv4 addresses an IPv6 address leads to, if it carries any, and
 * whether they alone decide where it goes. Translation and tunnel forms
 * decide: IPv4-mapped `::ffff:a.b.c.d`, IPv4-translated (SIIT)
 * `::ffff:0:a.b.c.d`, IPv4-compatible `::a.b.c.d`, NAT64 `64:ff9b::/96`,
 * 6to4 `2002:aabb:ccdd::/48`, and Teredo `2001:0::/32` (its server's address,
 * and its client's, stored inverted). An ISATAP interface id
 * (`…:0:5efe:a.b.c.d` or `…:200:5efe:a.b.c.d`) does not: its prefix is still
 * checked as IPv6.
 */
function carriedIpv4(address: string): { ipv4: string[]; decides: boolean } | null {
  const b = ipv6Bytes(address);
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  const quad = (at: number, flip = 0) =>
    b
      .slice(at, at + 4)
      .map((x) => x ^ flip)
      .join('.');
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return { ipv4: [quad(12)], decides: true };
  if (zeros(0, 8) && b[8] === 0xff && b[9] === 0xff && zeros(10, 12)) return { ipv4: [quad(12)], decides: true };
  if (zeros(0, 12) && !zeros(12, 16) && !(zeros(12, 15) && b[15] === 1)) return { ipv4: [quad(12)], decides: true };
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12))
    return { ipv4: [quad(12)], decides: true };
  if (b[0] === 0x20 && b[1] === 0x02) return { ipv4: [quad(2)], decides: true };
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x00 && b[3] === 0x00)
    return { ipv4: [quad(4), quad(12, 0xff)], decides: true };
  if ((b[8]! & 0xfd) === 0 && b[9] === 0 && b[10] === 0x5e && b[11] === 0xfe)
    return { ipv4: [quad(12)], decides: false };
  return null;
}

/**
 * Why an endpoint may not connect to this address, or null when it may.
 * Metadata addresses are refused even where private endpoints are allowed.
 */
export function refusedAddress(address: string, options: { allowPrivate?: boolean } = {}): string | null {
  const family = isIP(address) === 6 ? 'ipv6' : isIP(address) === 4 ? 'ipv4' : null;
  if (!family) return 'not an IP address';
  const carried = family === 'ipv6' ? carriedIpv4(address) : null;
  if (METADATA.check(address, family) || carried?.ipv4.some((v4) => METADATA.check(v4, 'ipv4')))
    return 'a cloud metadata address';
  if (options.allowPrivate) return null;
  if (carried) {
    for (const v4 of carried.ipv4) {
      const inner = refusedAddress(v4, options);
      if (inner) return `${inner} (in IPv6 form)`;
    }
    if (carried.decides) return null;
  }
  if (family === 'ipv6' && GLOBAL_IN_IETF_BLOCK.check(address, 'ipv6')) return null;
  const listed = BLOCKS.find((b) => b.family === family && b.list.check(address, family))?.reason;
  if (listed) return listed;
  if (family === 'ipv6' && !GLOBAL_UNICAST.check(address, 'ipv6'))
    return 'a reserved address (outside the global unicast space 2000::/3)';
  return null;
}

/** Every address a name resolves to (dns.lookup with all: true; tests give their own, to rebind a name). */
export type Resolver = (
  hostname: string,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/** The refusal as the connection fails with it, told to the operator's log first. */
function refuse(host: string, address: string, reason: string, options: GuardOptions): ForbiddenEndpointError {
  options.onRefused?.({ host, address, reason });
  return new ForbiddenEndpointError(host, address, reason);
}

/** A DNS lookup that refuses names resolving to any refused address (every address of the answer is checked). */
export function guardedLookup(options: GuardOptions & { resolve?: Resolver } = {}): LookupFunction {
  const resolve = options.resolve ?? ((hostname, callback) => dnsLookup(hostname, { all: true }, callback));
  return ((hostname: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    resolve(hostname, (error, addresses) => {
      if (error) return callback(error);
      for (const { address } of addresses) {
        const reason = refusedAddress(address, options);
        if (reason) return callback(refuse(hostname, address, reason, options));
      }
      if (lookupOptions.all) return callback(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  }) as LookupFunction;
}

type ConnectionOptions = { host?: string; hostname?: string; servername?: string };

/** Checks an address literal (Node skips the lookup for those), then connects with the guarded lookup. */
function guardConnections<T extends HttpAgent>(agent: T, options: GuardOptions): T {
  const createConnection = (
    agent as unknown as { createConnection: (o: ConnectionOptions, cb?: unknown) => unknown }
  ).createConnection.bind(agent);
  (agent as unknown as { createConnection: unknown }).createConnection = (
    connect: ConnectionOptions,
    callback?: (error: Error | null) => void,
  ) => {
    const host = (connect.host ?? connect.hostname ?? '').replace(/^\[|\]$/g, '');
    if (isIP(host)) {
      const reason = refusedAddress(host, options);
      // Handing the error to the agent's callback fails this request (Node's agent takes a connection or an error from it).
      if (reason) {
        const refused = refuse(host, host, reason, options);
        return void process.nextTick(() => callback?.(refused));
      }
    }
    return createConnection({ ...connect, lookup: guardedLookup(options) } as ConnectionOptions, callback);
  };
  return agent;
}

/** The https agent for callers' endpoints: every connection's address is checked when it is made. */
export function guardedHttpsAgent(options: GuardOptions = {}): HttpsAgent {
  return guardConnections(new HttpsAgent({ keepAlive: true, maxSockets: 50 }), options);
}

/** Plain http, for a loopback test endpoint where the operator allows private endpoints (never on AWS). */
export function guardedHttpAgent(options: GuardOptions = {}): HttpAgent {
  return guardConnections(new HttpAgent({ keepAlive: true, maxSockets: 50 }), options);
}

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

/** The error a refused connection fails with; classify.ts maps it to BucketError('forbidden_endpoint'). */
export class ForbiddenEndpointError extends Error {
  readonly code = 'ERR_FORBIDDEN_ENDPOINT';
  constructor(readonly host: string, readonly address: string, readonly reason: string) {
    super(`${host === address ? address : `${host} resolves to ${address}`}, ${reason}`);
    this.name = 'ForbiddenEndpointError';
  }
}

const METADATA = new BlockList();
METADATA.addAddress('169.254.169.254', 'ipv4');
METADATA.addAddress('fd00:ec2::254', 'ipv6');

/** Ranges a caller's endpoint may not reach, each with the reason the customer reads. */
const RANGES: Array<[string, number, 'ipv4' | 'ipv6', string]> = [
  ['0.0.0.0', 8, 'ipv4', 'an unspecified ("this network") address'],
  ['127.0.0.0', 8, 'ipv4', 'a loopback address'],
  ['10.0.0.0', 8, 'ipv4', 'a private (RFC 1918) address'],
  ['172.16.0.0', 12, 'ipv4', 'a private (RFC 1918) address'],
  ['192.168.0.0', 16, 'ipv4', 'a private (RFC 1918) address'],
  ['100.64.0.0', 10, 'ipv4', 'a shared (carrier-grade NAT) address'],
  ['169.254.0.0', 16, 'ipv4', 'a link-local address'],
  ['192.0.0.0', 24, 'ipv4', 'an IETF protocol address'],
  ['198.18.0.0', 15, 'ipv4', 'a benchmarking address'],
  ['224.0.0.0', 4, 'ipv4', 'a multicast address'],
  ['240.0.0.0', 4, 'ipv4', 'a reserved address'],
  ['::', 128, 'ipv6', 'an unspecified address'],
  ['::1', 128, 'ipv6', 'a loopback address'],
  ['fc00::', 7, 'ipv6', 'a unique-local (private) address'],
  ['fe80::', 10, 'ipv6', 'a link-local address'],
  ['ff00::', 8, 'ipv6', 'a multicast address'],
];
const BLOCKS = RANGES.map(([net, bits, family, reason]) => {
  const list = new BlockList();
  list.addSubnet(net, bits, family);
  return { list, family, reason };
});

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
    text = text.slice(0, -dotted[1]!.length) + `${((a! << 8) | b!).toString(16)}:${((c! << 8) | d!).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return groups.flatMap((g) => { const n = parseInt(g || '0', 16); return [n >> 8, n & 0xff]; });
}

/** The IPv4 address an IPv6 one carries (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d, NAT64 64:ff9b::a.b.c.d, 6to4 2002:ab:cd::), if any. */
function embeddedIpv4(address: string): string | null {
  const b = ipv6Bytes(address);
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  const quad = (at: number) => b.slice(at, at + 4).join('.');
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return quad(12);
  if (zeros(0, 12) && !zeros(12, 16) && !(zeros(12, 15) && b[15] === 1)) return quad(12);
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) return quad(12);
  if (b[0] === 0x20 && b[1] === 0x02) return quad(2);
  return null;
}

/**
 * Why an endpoint may not connect to this address, or null when it may.
 * Metadata addresses are refused even where private endpoints are allowed.
 */
export function refusedAddress(address: string, options: { allowPrivate?: boolean } = {}): string | null {
  const family = isIP(address) === 6 ? 'ipv6' : isIP(address) === 4 ? 'ipv4' : null;
  if (!family) return 'not an IP address';
  const v4 = family === 'ipv6' ? embeddedIpv4(address) : null;
  if (METADATA.check(address, family) || (v4 && METADATA.check(v4, 'ipv4'))) return 'a cloud metadata address';
  if (options.allowPrivate) return null;
  if (v4) {
    const inner = refusedAddress(v4, options);
    return inner ? `${inner} (in IPv6 form)` : null;
  }
  return BLOCKS.find((b) => b.family === family && b.list.check(address, family))?.reason ?? null;
}

/** Every address a name resolves to (dns.lookup with all: true; tests give their own, to rebind a name). */
export type Resolver = (hostname: string, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

/** A DNS lookup that refuses names resolving to any refused address (every address of the answer is checked). */
export function guardedLookup(options: { allowPrivate?: boolean; resolve?: Resolver } = {}): LookupFunction {
  const resolve = options.resolve ?? ((hostname, callback) => dnsLookup(hostname, { all: true }, callback));
  return ((hostname: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    resolve(hostname, (error, addresses) => {
      if (error) return callback(error);
      for (const { address } of addresses) {
        const reason = refusedAddress(address, options);
        if (reason) return callback(new ForbiddenEndpointError(hostname, address, reason));
      }
      if (lookupOptions.all) return callback(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  }) as LookupFunction;
}

type ConnectionOptions = { host?: string; hostname?: string; servername?: string };

/** Checks an address literal (Node skips the lookup for those), then connects with the guarded lookup. */
function guardConnections<T extends HttpAgent>(agent: T, options: { allowPrivate?: boolean }): T {
  const createConnection = (agent as unknown as { createConnection: (o: ConnectionOptions, cb?: unknown) => unknown }).createConnection.bind(agent);
  (agent as unknown as { createConnection: unknown }).createConnection = (connect: ConnectionOptions, callback?: (error: Error | null) => void) => {
    const host = (connect.host ?? connect.hostname ?? '').replace(/^\[|\]$/g, '');
    if (isIP(host)) {
      const reason = refusedAddress(host, options);
      // Handing the error to the agent's callback fails this request (Node's agent takes a connection or an error from it).
      if (reason) return void process.nextTick(() => callback?.(new ForbiddenEndpointError(host, host, reason)));
    }
    return createConnection({ ...connect, lookup: guardedLookup(options) } as ConnectionOptions, callback);
  };
  return agent;
}

/** The https agent for callers' endpoints: every connection's address is checked when it is made. */
export function guardedHttpsAgent(options: { allowPrivate?: boolean } = {}): HttpsAgent {
  return guardConnections(new HttpsAgent({ keepAlive: true, maxSockets: 50 }), options);
}

/** Plain http, for a loopback test endpoint where the operator allows private endpoints (never on AWS). */
export function guardedHttpAgent(options: { allowPrivate?: boolean } = {}): HttpAgent {
  return guardConnections(new HttpAgent({ keepAlive: true, maxSockets: 50 }), options);
}

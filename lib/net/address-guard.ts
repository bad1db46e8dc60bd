// SSRF guard: decides whether a URL may be fetched and which vetted addresses its socket may use.
// The caller connects only to the addresses returned here, so a DNS answer cannot change in between.
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { NetError, type ResolvedAddress, type Resolver } from './types';

// Allow-list rather than deny-list: anything ipaddr.js does not call plain 'unicast' is refused,
// so a range added to the library later fails closed.
const PUBLIC_RANGES = new Set(['unicast']);

// IPv6 forms that carry an IPv4 address; they are judged by the address they carry.
const EMBEDS_IPV4 = new Set(['ipv4Mapped', 'rfc6145', 'rfc6052', '6to4']);

// Cloud metadata services hand out the host's credentials, so they are refused even when
// ALLOW_PRIVATE_NETWORK=true lets intranet sites through. All of IPv4 link-local is in: AWS, GCP, Azure,
// OCI, DigitalOcean, OpenStack (169.254.169.254), ECS and EKS (169.254.170.2, .23) and Tencent
// (169.254.0.23) all live there, and no intranet site is served from it.
const METADATA_RANGES_V4 = [ipaddr.IPv4.parseCIDR('169.254.0.0/16')];
// AWS's IPv6 endpoints (fd00:ec2::254 IMDS, fd00:ec2::23 EKS pod identity) sit in fd00:ec2::/32.
const METADATA_RANGES_V6 = [ipaddr.IPv6.parseCIDR('fd00:ec2::/32')];
// Outside the ranges above: Alibaba (100.100.100.200), Azure's WireServer (168.63.129.16, public space).
const METADATA_ADDRESSES = new Set(['100.100.100.200', '168.63.129.16']);
// Names of metadata services, refused before any DNS is asked (an intranet resolver may answer them with
// anything). Compared without a trailing dot, case-insensitively.
const METADATA_HOSTS = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.azure.internal',
  'metadata.tencentyun.com',
  'instance-data',
  'instance-data.ec2.internal',
]);

const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');
// Only the well-known NAT64 prefix embeds an address we can judge; local-use 64:ff9b:1::/48 is private.
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

export interface GuardOptions {
  allowPrivateNetwork: boolean;
  /** null: any port (decided in options.ts portRule, the one place that reads the settings). */
  allowedPorts: readonly number[] | null;
  resolve?: Resolver;
}

/** True when `ip` must never be contacted: not a public unicast address, or not an address at all. */
export function isBlockedAddress(ip: string): boolean {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  if (!ipaddr.isValid(bare)) return true;
  if (isMetadataAddress(bare)) return true;
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv4') return !PUBLIC_RANGES.has(parsed.range());
  const v6 = parsed as ipaddr.IPv6;
  const range = v6.range();
  if (range === 'rfc6052' && !v6.match(NAT64_WELL_KNOWN)) return true;
  if (EMBEDS_IPV4.has(range)) return isBlockedAddress(embeddedIpv4(v6, range));
  // The deprecated IPv4-compatible form (::a.b.c.d) is still 'unicast' to ipaddr.js.
  if (v6.match(IPV4_COMPATIBLE)) return true;
  return !PUBLIC_RANGES.has(range);
}

// Class E (240.0.0.0/4, reserved, 255.255.255.255 included): no host is served from it.
const CLASS_E = ipaddr.IPv4.parseCIDR('240.0.0.0/4');
const NEVER_V4 = new Set(['unspecified', 'broadcast', 'multicast']);
const NEVER_V6 = new Set(['unspecified', 'multicast']);

/**
 * True when `ip` is (or carries) an address no fetch has a reason to reach, whatever ALLOW_PRIVATE_NETWORK
 * says: unspecified (0.0.0.0/8, ::, which Linux connects to this host), broadcast and class E
 * (255.255.255.255, 240.0.0.0/4) and multicast (224.0.0.0/4, ff00::/8). Not an address: false here.
 */
export function isNeverContactedAddress(ip: string): boolean {
  const address = carriedAddress(ip);
  if (address === null) return false;
  if (address.kind() === 'ipv4') {
    const v4 = address as ipaddr.IPv4;
    return NEVER_V4.has(v4.range()) || v4.match(CLASS_E);
  }
  return NEVER_V6.has(address.range());
}

/**
 * True when `ip` is (or carries) a cloud metadata address: refused whatever ALLOW_PRIVATE_NETWORK says.
 * IPv6 forms that embed an IPv4 address (mapped, IPv4-compatible, NAT64, 6to4, SIIT) are judged by that
 * address, so ::ffff:169.254.169.254 is metadata too. Anything that is not an address is false here
 * (isBlockedAddress refuses it).
 */
export function isMetadataAddress(ip: string): boolean {
  const address = carriedAddress(ip);
  if (address === null) return false;
  if (address.kind() === 'ipv4') {
    const v4 = address as ipaddr.IPv4;
    return METADATA_ADDRESSES.has(v4.toString()) || METADATA_RANGES_V4.some((cidr) => v4.match(cidr));
  }
  const v6 = address as ipaddr.IPv6;
  return METADATA_RANGES_V6.some((cidr) => v6.match(cidr));
}

/**
 * The address `ip` stands for (brackets and zone dropped): an IPv6 form that embeds an IPv4 address
 * (mapped, IPv4-compatible, NAT64, 6to4, SIIT) as that IPv4 address, so the rules that refuse an address
 * whatever ALLOW_PRIVATE_NETWORK says cannot be passed in another notation. ::1 stays loopback: it is
 * inside ::/96 too, but is not 0.0.0.1. null when `ip` is not an address.
 */
function carriedAddress(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = (ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip).replace(/%.*$/, '');
  if (!ipaddr.isValid(bare)) return null;
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv4') return parsed as ipaddr.IPv4;
  const v6 = parsed as ipaddr.IPv6;
  const range = v6.range();
  if (EMBEDS_IPV4.has(range) || (v6.match(IPV4_COMPATIBLE) && range !== 'loopback'))
    return ipaddr.IPv4.parse(embeddedIpv4(v6, range));
  return v6;
}

/** True when `hostname` names a cloud metadata service (metadata.google.internal and the like). */
export function isMetadataHost(hostname: string): boolean {
  return METADATA_HOSTS.has(hostname.toLowerCase().replace(/\.$/, ''));
}

function embeddedIpv4(v6: ipaddr.IPv6, range: string): string {
  const bytes = v6.toByteArray();
  // 6to4 (2002:AABB:CCDD::/48) carries the address in bytes 2-5; the others in the last four.
  const start = range === '6to4' ? 2 : 12;
  return bytes.slice(start, start + 4).join('.');
}

/** The port a URL connects to, filling in the scheme default. */
export function effectivePort(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/** The URL as it may appear in messages and logs: credentials and fragment removed. */
export function displayUrl(url: URL): string {
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  copy.hash = '';
  return copy.href;
}

/** Checks what can be judged without the network: scheme, credentials, port. */
export function assertUrlShape(url: URL, opts: Omit<GuardOptions, 'resolve'>): void {
  const shown = displayUrl(url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new NetError(
      'bad_scheme',
      shown,
      `${shown} uses ${url.protocol.replace(/:$/, '')}; only http and https can be fetched`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new NetError(
      'credentials_in_url',
      shown,
      `${shown} contains a user name or password, which is not allowed in fetched URLs`,
    );
  }
  const port = effectivePort(url);
  if (opts.allowedPorts !== null && !opts.allowedPorts.includes(port)) {
    // With private networks allowed the list still applies, and saying so spares an operator the hunt.
    const lifted = opts.allowPrivateNetwork
      ? ' (ALLOWED_PORTS applies even with ALLOW_PRIVATE_NETWORK=true)'
      : '';
    throw new NetError(
      'port_not_allowed',
      shown,
      `${shown} uses port ${port}; allowed ports are ${opts.allowedPorts.join(', ')}${lifted}`,
    );
  }
}

/**
 * Full check of one URL (or redirect hop): its shape, then every address its host resolves to.
 * Returns the vetted addresses; connect only to these. Refuses if ANY answer is non-public, because
 * the client may pick any of them (and a rebinding DNS server would offer both kinds).
 */
/** What to do about a name that does not resolve: the fault is the name or the network, never the site's
 * robots.txt or anything a setting of this product changes. */
export const DNS_ADVICE =
  ': the host name does not resolve: check the spelling, DNS, or whether the site is reachable from the server';

export async function assertPublicUrl(url: URL, opts: GuardOptions): Promise<ResolvedAddress[]> {
  assertUrlShape(url, opts);
  const shown = displayUrl(url);
  // Metadata services first, and regardless of allowPrivateNetwork: by name before DNS is asked, then by
  // every answer (a name of ours may resolve there; an IP literal is its own answer).
  if (isMetadataHost(url.hostname)) throw metadataError(shown);
  const addresses = await resolveHost(url, opts.resolve);
  if (addresses.length === 0) {
    throw new NetError('dns_failed', shown, `${url.hostname} (in ${shown}) has no address${DNS_ADVICE}`);
  }
  if (addresses.some((a) => isMetadataAddress(a.address))) throw metadataError(shown);
  if (addresses.some((a) => isNeverContactedAddress(a.address))) {
    throw new NetError(
      'blocked_address',
      shown,
      `${shown} points to a broadcast, multicast or unspecified (0.0.0.0, ::) address, which is never fetched (not even with ALLOW_PRIVATE_NETWORK=true)`,
    );
  }
  if (!opts.allowPrivateNetwork && addresses.some((a) => isBlockedAddress(a.address))) {
    // The address itself stays out of the message: it would reveal internal DNS to the user.
    throw new NetError(
      'blocked_address',
      shown,
      `${shown} points to a private, loopback or reserved network address, which is not allowed`,
    );
  }
  return addresses;
}

function metadataError(shown: string): NetError {
  return new NetError(
    'blocked_address',
    shown,
    `${shown} points to a cloud metadata service, which is never fetched (not even with ALLOW_PRIVATE_NETWORK=true)`,
  );
}

async function resolveHost(url: URL, resolve: Resolver | undefined): Promise<ResolvedAddress[]> {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (ipaddr.isValid(host) && (host.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(host))) {
    return [{ address: host, family: host.includes(':') ? 6 : 4 }];
  }
  try {
    if (resolve) return await resolve(host);
    const answers = await lookup(host, { all: true, verbatim: true });
    return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
  } catch (err) {
    const shown = displayUrl(url);
    throw new NetError('dns_failed', shown, `${host} (in ${shown}) could not be resolved${DNS_ADVICE}`, {
      cause: err,
    });
  }
}

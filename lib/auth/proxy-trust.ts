// Which X-Forwarded-* headers to believe, decided by TRUST_PROXY the way Express's `trust proxy` does:
// any client can send these headers, so they count only when a proxy we trust wrote them. Pure.
import ipaddr from 'ipaddr.js';

export type TrustProxy =
  /** Unset, `false` or `0`: the socket's peer is the client; X-Forwarded-* are ignored. */
  | { kind: 'none' }
  /** `N`: the N nearest hops (the peer and N-1 entries of X-Forwarded-For from the right) are proxies. */
  | { kind: 'hops'; hops: number }
  /** A list of addresses or CIDR ranges: hops inside them are proxies, the first one outside is the client. */
  | { kind: 'ranges'; ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] };

const MAX_HOPS = 32;
const KEYWORDS: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  private: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

function parseRange(entry: string): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  try {
    if (entry.includes('/')) return ipaddr.parseCIDR(entry);
    const address = normal(ipaddr.parse(entry));
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  } catch {
    throw new Error(
      `TRUST_PROXY: "${entry}" is not an IP address, a CIDR range (10.0.0.0/8), "loopback" or "private"`,
    );
  }
}

/** Reads TRUST_PROXY; a value it cannot read is an error (a typo must not quietly trust everyone). */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = value?.trim().toLowerCase() ?? '';
  if (text === '' || text === 'false' || text === '0') return { kind: 'none' };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > MAX_HOPS) throw new Error(`TRUST_PROXY: ${hops} hops is more than ${MAX_HOPS}; is it right?`);
    return { kind: 'hops', hops };
  }
  if (text === 'true') {
    throw new Error(
      'TRUST_PROXY=true would believe any X-Forwarded-For a client sends; give the number of proxies in front of the app (TRUST_PROXY=1) or their addresses (TRUST_PROXY=10.0.0.5,loopback)',
    );
  }
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const ranges = entries.flatMap((entry) => (KEYWORDS[entry] ?? [entry]).map(parseRange));
  return { kind: 'ranges', ranges };
}

/** IPv4-mapped IPv6 (`::ffff:127.0.0.1`, how a dual-stack socket reports IPv4 peers) as plain IPv4. */
function normal(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()
    ? (address as ipaddr.IPv6).toIPv4Address()
    : address;
}

/** An address as a stable key (`::ffff:1.2.3.4` and `1.2.3.4` are one client); other text trimmed. */
export function normalAddress(value: string): string {
  const text = value.trim();
  return ipaddr.isValid(text) ? normal(ipaddr.parse(text)).toString() : text.slice(0, 100);
}

function inRanges(trust: Extract<TrustProxy, { kind: 'ranges' }>, value: string): boolean {
  if (!ipaddr.isValid(value)) return false;
  const address = normal(ipaddr.parse(value));
  return trust.ranges.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
}

/** Whether the socket's peer is a proxy we trust, i.e. whether its X-Forwarded-* headers count. */
export function trustsPeer(trust: TrustProxy, peer: string): boolean {
  if (trust.kind === 'none') return false;
  if (trust.kind === 'hops') return trust.hops >= 1;
  return inRanges(trust, peer);
}

/** The client's address: the peer, or the first hop (from the right) past the proxies we trust. */
export function clientAddress(trust: TrustProxy, peer: string, forwardedFor: string | null): string {
  // Nearest first: the socket's peer, then X-Forwarded-For read from its right end.
  const chain = [
    peer,
    ...(forwardedFor ?? '')
      .split(',')
      .map((hop) => hop.trim())
      .filter(Boolean)
      .reverse(),
  ].map(normalAddress);
  if (trust.kind === 'none') return chain[0] as string;
  if (trust.kind === 'hops') return chain[Math.min(trust.hops, chain.length - 1)] as string;
  for (const hop of chain) if (!inRanges(trust, hop)) return hop;
  return chain[chain.length - 1] as string;
}

/** The right-most value of a comma-separated X-Forwarded-* header: the one our nearest proxy set. */
export function lastForwarded(value: string | null): string | null {
  const last = value?.split(',').at(-1)?.trim();
  return last ? last : null;
}

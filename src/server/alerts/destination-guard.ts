// What outbound addresses an alert may go to. Destinations are chosen by an admin, and the BFF
// sits inside the operator's network: without these checks a destination could read the cloud
// metadata service or poke internal hosts (SSRF). Checked when a destination is saved, and again
// on the address each connection actually resolves to (alert-http.ts), so DNS rebinding cannot
// turn an approved name into an internal address later.
import { BlockList, isIP } from 'node:net';

/** The rules in force for outbound alerts. */
export interface DestinationPolicy {
  /** ALERT_ALLOW_PRIVATE: allow private, loopback and link-local addresses. */
  readonly allowPrivate: boolean;
  /** Demo mode: `http://127.0.0.1` is allowed, so a local receiver can be tried without TLS. */
  readonly demo: boolean;
}

/** A destination the console refuses to call, with the reason in plain words. */
export class DestinationRefusedError extends Error {
  override name = 'DestinationRefusedError';
}

// Addresses no alert may reach unless ALERT_ALLOW_PRIVATE=true: "this network", private ranges,
// shared address space, loopback, link-local (169.254.169.254 is the cloud metadata service),
// benchmarking, multicast and reserved ranges, and their IPv6 counterparts.
const BLOCKED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv6');
}

/** True for an address an alert must not reach without ALERT_ALLOW_PRIVATE. */
export function isRestrictedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family === 6) {
    // An IPv4-mapped IPv6 address (::ffff:10.0.0.1) is the IPv4 address.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped?.[1]) return BLOCKED.check(mapped[1], 'ipv4');
    return BLOCKED.check(address, 'ipv6');
  }
  return true;
}

/** `http://127.0.0.1[:port]/…` in demo mode: the local receiver. */
export function isDemoLoopback(url: URL, policy: DestinationPolicy): boolean {
  return policy.demo && url.protocol === 'http:' && url.hostname === '127.0.0.1';
}

/**
 * Parses and checks a destination URL; throws DestinationRefusedError saying why it is refused.
 * Names are checked again at connect time, on the addresses they resolve to.
 */
export function checkDestinationUrl(text: string, policy: DestinationPolicy): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new DestinationRefusedError('is not an absolute URL');
  }
  if (url.username || url.password) {
    throw new DestinationRefusedError('must not carry a user name or password');
  }
  if (url.hash) throw new DestinationRefusedError('must not carry a #fragment');
  if (isDemoLoopback(url, policy)) return url;
  if (url.protocol !== 'https:') {
    throw new DestinationRefusedError(
      policy.demo
        ? 'must start with https:// (or http://127.0.0.1 for a local receiver in demo mode)'
        : 'must start with https://',
    );
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!policy.allowPrivate) {
    if (isIP(host) !== 0 && isRestrictedAddress(host)) {
      throw new DestinationRefusedError(
        'points at a private, loopback or link-local address (set ALERT_ALLOW_PRIVATE=true to allow)',
      );
    }
    if (host === 'localhost' || host.endsWith('.localhost')) {
      throw new DestinationRefusedError(
        'points at this machine (set ALERT_ALLOW_PRIVATE=true to allow)',
      );
    }
  }
  return url;
}

// Where outgoing calls may not go. The only importer of ipaddr.js, a maintained classifier, so that no
// spelling slips through (IPv4-mapped `::ffff:7f00:1`, NAT64 `64:ff9b::/96`, `0:0:0:0:0:0:0:1`, ...):
// - with --custom-deny-private, any address whose range is not plain `unicast`;
// - always, the service's own listening address and port (a client-built body must never reach /admin).

import ipaddr from 'ipaddr.js';
import { networkInterfaces } from 'node:os';

/** The service's own listening port and the addresses it answers on (loopback and unspecified always). */
export interface SelfAddress {
  readonly port: number;
  /** Canonical forms (see `canonical`) of the host's addresses when listening on all, else the one bound. */
  readonly addresses: readonly string[];
}

export const SELF_DENIED = "destination address not allowed: it is this service's own address and port";

/** An IP literal or resolved address, IPv4-mapped IPv6 judged as its IPv4; undefined for names. */
function parse(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  return ipaddr.isValid(bare) ? ipaddr.process(bare) : undefined;
}

/** `::/96` (IPv4-compatible, deprecated): the IPv4 it embeds would be reached on some stacks. */
function isIpv4Compatible(ip: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (ip.kind() !== 'ipv6') return false;
  const parts = (ip as ipaddr.IPv6).parts;
  return parts.slice(0, 6).every((p) => p === 0);
}

/** True for anything but a plain public unicast address (IP literals only; names are false). */
export function isPrivateAddress(address: string): boolean {
  const ip = parse(address);
  if (ip === undefined) return false;
  return isIpv4Compatible(ip) || ip.range() !== 'unicast';
}

function canonical(ip: ipaddr.IPv4 | ipaddr.IPv6): string {
  return ip.toString();
}

/** The addresses a server bound to `host` answers on. */
export function selfAddress(host: string, port: number): SelfAddress {
  const ip = parse(host);
  if (ip !== undefined && ip.range() !== 'unspecified') return { port, addresses: [canonical(ip)] };
  const addresses: string[] = [];
  for (const list of Object.values(networkInterfaces())) {
    for (const entry of list ?? []) {
      const own = parse(entry.address);
      if (own !== undefined) addresses.push(canonical(own));
    }
  }
  return { port, addresses };
}

/** Whether `address`:`port` is the service itself (any loopback or unspecified address counts). */
export function isSelfAddress(self: SelfAddress | undefined, address: string, port: number): boolean {
  if (self === undefined || port !== self.port) return false;
  const ip = parse(address);
  if (ip === undefined) return false;
  const range = ip.range();
  if (range === 'loopback' || range === 'unspecified' || isIpv4Compatible(ip)) return true;
  return self.addresses.includes(canonical(ip));
}

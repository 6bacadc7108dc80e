// IP networks an operator names in a setting (TESSERA_WEBHOOKS_ALLOW, TESSERA_METRICS_ALLOW): a
// CIDR network or a single address, read strictly, and whether an address falls in one of them.
import ipaddr from 'ipaddr.js';

export type Network = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** An IPv4 address in dotted-quad form only (ipaddr also takes "10" or "0x0a.1"), or an IPv6 one. */
function strictAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = text.replace(/^\[(.*)\]$/, '$1');
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) return ipaddr.IPv4.parse(bare);
  if (ipaddr.IPv6.isValid(bare)) return ipaddr.IPv6.parse(bare);
  return null;
}

/** A network (10.0.0.0/8) or a single address (127.0.0.1, ::1, a /32 or /128); null when neither. */
export function parseNetwork(entry: string): Network | null {
  const slash = entry.lastIndexOf('/');
  const address = strictAddress(slash < 0 ? entry : entry.slice(0, slash));
  if (!address) return null;
  const max = address.kind() === 'ipv4' ? 32 : 128;
  if (slash < 0) return [address, max];
  const bits = entry.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bits) || Number(bits) > max) return null;
  return [address, Number(bits)];
}

/** Whether an address is in one of the networks; an IPv4-mapped IPv6 address counts as its IPv4 one. */
export function inNetworks(address: string, networks: readonly Network[]): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.process(address);
  return networks.some(([base, bits]) => base.kind() === ip.kind() && ip.match(base, bits));
}

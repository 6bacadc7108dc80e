// The operator's list of private receivers (TESSERA_WEBHOOKS_ALLOW): networks (10.0.0.0/8), single
// addresses (127.0.0.1, ::1) and host names (n8n.lan), comma-separated. Webhook endpoints and
// automation subscriptions may reach what it names besides public addresses; nothing else private.
import ipaddr from 'ipaddr.js';

export interface ReceiverAllowList {
  /** The entries as the operator wrote them, for the start-up banner. */
  entries: readonly string[];
  networks: readonly [ipaddr.IPv4 | ipaddr.IPv6, number][];
  /** Host names, lower case, without a trailing dot. */
  names: ReadonlySet<string>;
}

export const nothingAllowed: ReceiverAllowList = { entries: [], networks: [], names: new Set() };

/** An IPv4 address in dotted-quad form only (ipaddr also takes "10" or "0x0a.1"), or an IPv6 one. */
function strictAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = text.replace(/^\[(.*)\]$/, '$1');
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) return ipaddr.IPv4.parse(bare);
  if (ipaddr.IPv6.isValid(bare)) return ipaddr.IPv6.parse(bare);
  return null;
}

const label = '[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?';
const hostName = new RegExp(`^(?=.{1,253}$)${label}(?:\\.${label})*$`);

function network(entry: string): [ipaddr.IPv4 | ipaddr.IPv6, number] | null {
  const slash = entry.lastIndexOf('/');
  const address = strictAddress(slash < 0 ? entry : entry.slice(0, slash));
  if (!address) return null;
  const max = address.kind() === 'ipv4' ? 32 : 128;
  if (slash < 0) return [address, max];
  const bits = entry.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bits) || Number(bits) > max) return null;
  return [address, Number(bits)];
}

/**
 * Reads the list; `refuse` makes the error for an entry that is neither a network, an address nor
 * a host name (the caller's SettingsError). Empty entries (a trailing comma) are ignored.
 */
export function parseReceiverAllowList(
  value: string | undefined,
  refuse: (message: string) => Error,
): ReceiverAllowList {
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const networks: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];
  const names = new Set<string>();
  for (const entry of entries) {
    const range = network(entry);
    const name = entry.toLowerCase().replace(/\.$/, '');
    // A name whose last label is a number would be an address written wrongly (10.0.0.300).
    if (range) networks.push(range);
    else if (hostName.test(name) && !/^\d+$/.test(name.split('.').at(-1)!)) names.add(name);
    else
      throw refuse(
        `TESSERA_WEBHOOKS_ALLOW: "${entry}" is not a network, an IP address or a host name. Give them comma-separated, e.g. 127.0.0.1/32,10.0.0.0/8,n8n.lan.`,
      );
  }
  return { entries, networks, names };
}

/** Whether the list names this host name, or a network this address is in. */
export function allowListHas(list: ReceiverAllowList, hostname: string, address: string | null): boolean {
  if (list.names.has(hostname.toLowerCase().replace(/\.+$/, ''))) return true;
  if (address === null || !ipaddr.isValid(address)) return false;
  const ip = ipaddr.process(address);
  return list.networks.some(([base, bits]) => base.kind() === ip.kind() && ip.match(base, bits));
}

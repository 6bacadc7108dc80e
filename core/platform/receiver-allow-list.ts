// The operator's list of private receivers (TESSERA_WEBHOOKS_ALLOW): networks (10.0.0.0/8), single
// addresses (127.0.0.1, ::1) and host names (n8n.lan), comma-separated. Webhook endpoints and
// automation subscriptions may reach what it names besides public addresses; nothing else private.
import { inNetworks, type Network, parseNetwork } from './networks';

export interface ReceiverAllowList {
  /** The entries as the operator wrote them, for the start-up banner. */
  entries: readonly string[];
  networks: readonly Network[];
  /** Host names, lower case, without a trailing dot. */
  names: ReadonlySet<string>;
}

export const nothingAllowed: ReceiverAllowList = { entries: [], networks: [], names: new Set() };

const label = '[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?';
const hostName = new RegExp(`^(?=.{1,253}$)${label}(?:\\.${label})*$`);

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
  const networks: Network[] = [];
  const names = new Set<string>();
  for (const entry of entries) {
    const range = parseNetwork(entry);
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
  return address !== null && inNetworks(address, list.networks);
}

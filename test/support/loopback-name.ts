// Debian and container images map the machine's own name to 127.0.0.1 or 127.0.1.1 in /etc/hosts:
// a name that is not localhost yet resolves to loopback, which the private-address rule must catch.
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';

/** The machine's name when it resolves to loopback alone here, else null (nothing to show). */
export async function loopbackMachineName(): Promise<string | null> {
  const name = hostname();
  const addresses = await lookup(name, { all: true }).catch(() => []);
  const loopbackOnly = addresses.length > 0 && addresses.every((a) => a.address.startsWith('127.'));
  return name !== 'localhost' && loopbackOnly ? name : null;
}

// Where messages may be sent: an absolute https address without user name or fragment, of at most
// 2,000 characters, at a public address. A name is resolved and refused when any of its addresses
// is loopback, private, link-local, unique-local, carrier-grade NAT, multicast, unspecified or
// otherwise not public (IPv4, IPv6, and IPv4 inside IPv6 alike); the dispatcher checks again the
// address it actually connects to, so a name that changes its answer cannot reach inside.
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { problem } from '../platform/problems';

export const maxReceiverUrlLength = 2000;

/** Whether an IP address may be sent to: a public unicast address only. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/** The host of a URL as an IP literal, when it is one ([::1] without the brackets). */
export function ipLiteral(hostname: string): string | null {
  const bare = hostname.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(bare) ? bare : null;
}

/**
 * Checks a receiver address in the order the contract gives: webhookUrl, webhookHttps,
 * webhookPrivate. Answers the parsed URL.
 */
export async function checkReceiverUrl(raw: string, allowPrivate: boolean): Promise<URL> {
  const refuse = (why: string) =>
    problem(
      'webhookUrl',
      `${why} Give an absolute https address without user name or fragment, at most 2,000 characters.`,
    );
  if (raw.length > maxReceiverUrlLength) throw refuse(`The address is ${raw.length} characters long.`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('The address is not an absolute URL.');
  }
  if (url.username || url.password) throw refuse('The address carries a user name.');
  if (raw.includes('#')) throw refuse('The address carries a fragment.');
  if (url.protocol !== 'https:')
    throw problem('webhookHttps', `The address must use https, not ${url.protocol.replace(':', '')}.`);
  if (!allowPrivate) await refusePrivate(url.hostname);
  return url;
}

async function refusePrivate(hostname: string): Promise<void> {
  const literal = ipLiteral(hostname);
  const addresses = literal
    ? [literal]
    : await lookup(hostname, { all: true, verbatim: true }).then(
        (found) => found.map((a) => a.address),
        // A name that does not resolve now cannot be shown to be private; each delivery checks again.
        () => [] as string[],
      );
  const inside = addresses.find((a) => !isPublicAddress(a));
  // A fully qualified name (trailing dot) is the same name: localhost. and app.localhost. too.
  const name = hostname.replace(/\.$/, '');
  if (inside !== undefined || name === 'localhost' || name.endsWith('.localhost')) {
    throw problem(
      'webhookPrivate',
      `The address ${hostname} ${literal ? 'is' : `resolves to ${inside ?? '127.0.0.1'}, which is`} not a public address.`,
    );
  }
}

/** The address as lists show it: the query part (often a token) is hidden. */
export function shownUrl(raw: string): string {
  const url = new URL(raw);
  const query = url.search ? '?…' : '';
  url.search = '';
  return `${url.toString()}${query}`;
}

// Where messages may be sent: an absolute https address without user name or fragment, of at most
// 2,000 characters, at a public address, or at an address the operator allowed
// (TESSERA_WEBHOOKS_ALLOW: a network it is in, or the URL's host name). Plain http is taken only
// for allowed addresses that are not public. A name is resolved and refused when any of its
// addresses breaks the rule; not public are loopback, private, link-local, unique-local,
// carrier-grade NAT, multicast, unspecified and the like (IPv4, IPv6, and IPv4 inside IPv6
// alike). The dispatcher checks the address it actually connects to against the same rule
// (receiverVerdict), so a name that changes its answer cannot reach inside.
//
// A name reserved never to resolve (RFC 2606, RFC 6761: .invalid, .test, .example, and those bare
// names) is refused before any lookup, unless TESSERA_WEBHOOKS_ALLOW names it (a lab's own hosts
// file). A name that does not resolve at this moment is taken, with a warning in the answer: DNS
// may catch up, and each delivery looks it up again. The lookup is bounded (lookupMs) and its
// answer kept a little while, so the check made before a write's transaction (lookAhead) is the one
// the write reuses, and no write waits on DNS.
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { problem } from '../platform/problems';
import { allowListHas, nothingAllowed, type ReceiverAllowList } from '../platform/receiver-allow-list';
import type { Warning } from '../platform/warnings';

export const maxReceiverUrlLength = 2000;

/** NAT64's well-known prefix (RFC 6052): the last 32 bits are the IPv4 address reached. */
const nat64 = ipaddr.parseCIDR('64:ff9b::/96');
/** 6to4 (RFC 3056): bits 16 to 48 are the IPv4 address of the site's relay. */
const sixToFour = ipaddr.parseCIDR('2002::/16');
/**
 * Global unicast (RFC 4291 §2.4). Outside it are IPv4-compatible (::a.b.c.d, deprecated) and
 * IPv4-translated addresses, whose range() says unicast: refused whatever IPv4 they carry.
 */
const globalUnicast = ipaddr.parseCIDR('2000::/3');

/** The IPv4 address a NAT64 or 6to4 address leads to. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const bytes = address.toByteArray();
  if (address.match(nat64)) return ipaddr.fromByteArray(bytes.slice(12)) as ipaddr.IPv4;
  if (address.match(sixToFour)) return ipaddr.fromByteArray(bytes.slice(2, 6)) as ipaddr.IPv4;
  return null;
}

/**
 * Whether an IP address may be sent to: a public unicast address only. IPv4-mapped addresses are
 * the IPv4 address (ipaddr.process); NAT64 and 6to4 ones are as public as the IPv4 they lead to.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.process(address);
  if (ip.kind() === 'ipv4') return ip.range() === 'unicast';
  const v6 = ip as ipaddr.IPv6;
  const v4 = embeddedIPv4(v6);
  if (v4) return v4.range() === 'unicast';
  return v6.range() === 'unicast' && v6.match(globalUnicast);
}

/** A host name as DNS resolves it: the fully qualified form (trailing dot) is the same name. */
export function dnsName(hostname: string): string {
  return hostname.replace(/\.+$/, '');
}

/** The host of a URL as an IP literal, when it is one ([::1] without the brackets). */
export function ipLiteral(hostname: string): string | null {
  const bare = hostname.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(bare) ? bare : null;
}

/** What a deployment lets receivers be: its allow-list, and the tests' switch that allows every private address. */
export interface ReceiverRule {
  /** TESSERA_WEBHOOKS_ALLOW_PRIVATE=1: every address over https (the test suite's global switch). */
  allowPrivate: boolean;
  /** TESSERA_WEBHOOKS_ALLOW. */
  allow?: ReceiverAllowList;
}

/** ok, or why not: an address neither public nor allowed, or plain http to a public address. */
export type ReceiverVerdict = 'ok' | 'notAllowed' | 'plainToPublic';

/**
 * The one rule, for creation and for every connection: may a message to `hostname` over https
 * (plain: false) or http (plain: true) go to `address`?
 */
export function receiverVerdict(
  rule: ReceiverRule,
  plain: boolean,
  hostname: string,
  address: string,
): ReceiverVerdict {
  const allowed = allowListHas(rule.allow ?? nothingAllowed, dnsName(hostname), address);
  const isPublic = isPublicAddress(address);
  if (plain) return isPublic ? 'plainToPublic' : allowed ? 'ok' : 'notAllowed';
  return isPublic || allowed || rule.allowPrivate ? 'ok' : 'notAllowed';
}

/** The sentence every refusal of a private address ends with: the setting that would allow it. */
export const allowHint = 'to deliver to it, add it (or its network) to TESSERA_WEBHOOKS_ALLOW';

/** Whether a host is a localhost name, which resolvers answer with loopback whatever DNS says. */
function localhostName(name: string): boolean {
  return name === 'localhost' || name.endsWith('.localhost');
}

/**
 * Top-level names that never resolve in the DNS (RFC 2606 §2, RFC 6761 §6.2–6.4). localhost is not
 * among them: it resolves, to loopback, and is refused as a private address unless allowed.
 */
const neverResolving = new Set(['invalid', 'test', 'example']);

/** The reserved top-level name a host ends in, or null. Case and a trailing dot do not matter. */
export function reservedName(hostname: string): string | null {
  const top = dnsName(hostname.toLowerCase()).split('.').at(-1) ?? '';
  return neverResolving.has(top) ? top : null;
}

/** The field every receiver address is sent in. */
const field = 'url';

/** A refusal naming the field, as the API's field errors do. */
function refusal(code: 'webhookUrl' | 'webhookHttps' | 'webhookPrivate', detail: string) {
  return problem(code, detail, { errors: [{ field, message: detail }] });
}

/** How long a receiver's name may take to resolve when it is checked; beyond, it is taken as not resolving now. */
export const lookupMs = 2_000;
/** How long a lookup's answer is reused, by the write that follows its look ahead. */
const keptMs = 30_000;
const mostKept = 1_000;

interface Resolution {
  addresses: string[];
  /** Why nothing was found (the resolver's code, or the time-out), when nothing was. */
  failure: string | null;
}

const kept = new Map<string, { until: number; answer: Promise<Resolution> }>();

function resolveNow(name: string): Promise<Resolution> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Resolution>((resolve) => {
    timer = setTimeout(
      () => resolve({ addresses: [], failure: `no answer within ${lookupMs / 1000} s` }),
      lookupMs,
    );
  });
  const found = lookup(name, { all: true, verbatim: true }).then(
    (list) => ({ addresses: list.map((a) => a.address), failure: list.length ? null : 'no addresses' }),
    (error: { code?: string }) => ({ addresses: [], failure: error.code ?? 'lookup failed' }),
  );
  return Promise.race([found, late]).finally(() => clearTimeout(timer));
}

/** The name's addresses, looked up at most once in keptMs (bounded by lookupMs). */
function resolved(name: string): Promise<Resolution> {
  const now = Date.now();
  const hit = kept.get(name);
  if (hit && hit.until > now) return hit.answer;
  if (kept.size >= mostKept) for (const [key, entry] of kept) if (entry.until <= now) kept.delete(key);
  if (kept.size >= mostKept) kept.clear();
  const answer = resolveNow(name);
  kept.set(name, { until: now + keptMs, answer });
  return answer;
}

/**
 * Looks the address's name up ahead of the write that checks it (outside its transaction), so the
 * check inside finds the answer kept. Anything unreadable is left for the check to refuse.
 */
export async function lookAhead(raw: string | undefined): Promise<void> {
  if (raw === undefined || raw.length > maxReceiverUrlLength || !URL.canParse(raw)) return;
  const { hostname } = new URL(raw);
  if (ipLiteral(hostname) || reservedName(hostname)) return;
  await resolved(dnsName(hostname));
}

/** A receiver address checked: the parsed URL, and what the answer should tell (a name not resolving now). */
export interface ReceiverCheck {
  url: URL;
  warnings: Warning[];
}

/**
 * Checks a receiver address in the order the contract gives: webhookUrl (a reserved name among
 * them), webhookHttps, webhookPrivate. Answers the parsed URL and its warnings.
 */
export async function checkReceiverUrl(raw: string, rule: ReceiverRule): Promise<ReceiverCheck> {
  const refuse = (why: string) =>
    refusal(
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
  const reserved = reservedName(url.hostname);
  if (reserved && !allowListHas(rule.allow ?? nothingAllowed, url.hostname, null))
    throw refuse(
      `The address's host ${url.hostname} is under .${reserved}, a name reserved never to resolve (RFC 2606, RFC 6761), so nothing could ever be delivered to it.`,
    );
  const plain = url.protocol === 'http:';
  if (url.protocol !== 'https:' && !plain)
    throw refusal('webhookHttps', `The address must use https, not ${url.protocol.replace(':', '')}.`);
  const failure = await refuseOutside(url.hostname, plain, rule);
  const warnings: Warning[] = failure
    ? [
        {
          code: 'receiverUnresolved',
          field,
          // Not naming the host: a subscription's address is never shown again once given.
          detail: `The address's name does not resolve now (${failure}): it was saved, and deliveries fail until it resolves.`,
        },
      ]
    : [];
  return { url, warnings };
}

/** Refuses an address outside the rule; answers why the name found no address, when it found none. */
async function refuseOutside(hostname: string, plain: boolean, rule: ReceiverRule): Promise<string | null> {
  const literal = ipLiteral(hostname);
  // vm. must not slip past where vm resolves to loopback (resolvers may not read /etc/hosts for it).
  const name = dnsName(hostname);
  const found = literal ? { addresses: [literal], failure: null } : await resolved(name);
  // localhost names are loopback whatever a resolver says of them.
  const local = localhostName(name);
  const addresses = local ? [...new Set([...found.addresses, '127.0.0.1'])] : found.addresses;
  const where = (address: string) =>
    `The address ${hostname} ${literal ? 'is' : `resolves to ${address}, which is`}`;
  if (plain) {
    // Plain http needs the list's word for it: a name that does not resolve now is taken only when listed.
    const allowed = allowListHas(rule.allow ?? nothingAllowed, name, null);
    if (addresses.length === 0 && !allowed)
      throw refusal(
        'webhookHttps',
        `The address must use https: plain http is only for receivers on TESSERA_WEBHOOKS_ALLOW, and ${hostname} is not on it.`,
      );
    for (const address of addresses) {
      const verdict = receiverVerdict(rule, true, hostname, address);
      if (verdict === 'plainToPublic')
        throw refusal(
          'webhookHttps',
          `The address must use https, not http: ${where(address)} a public address, and plain http is only for private receivers on TESSERA_WEBHOOKS_ALLOW.`,
        );
      if (verdict === 'notAllowed')
        throw refusal(
          'webhookHttps',
          `The address must use https, not http: ${where(address)} not a public address; plain http is only for receivers on TESSERA_WEBHOOKS_ALLOW, so ${allowHint}.`,
        );
    }
    return addresses.length > 0 ? null : found.failure;
  }
  // A name that does not resolve now cannot be shown to be private; each delivery checks again.
  const inside = addresses.find((a) => receiverVerdict(rule, false, hostname, a) !== 'ok');
  if (inside !== undefined)
    throw refusal('webhookPrivate', `${where(inside)} not a public address; ${allowHint}.`);
  return local || addresses.length > 0 ? null : found.failure;
}

/** The address as lists show it: the query part (often a token) is hidden. */
export function shownUrl(raw: string): string {
  const url = new URL(raw);
  const query = url.search ? '?…' : '';
  url.search = '';
  return `${url.toString()}${query}`;
}

// The one refusal for a removal while other records depend on the thing: 409 inUse, naming each kind
// of dependent with how many and the first ids, so the caller can move or remove them first. The
// detail counts them in a person's words ("3 invoice lines"); `dependents` keeps the kind's name.
import type { DetailPart } from './mentions';
import { problem } from './problems';

/** Each kind of dependent, in words: one and several. */
export const dependentWords = {
  callForSpeakers: ['call for speakers', 'calls for speakers'],
  content: ['published content item', 'published content items'],
  discountCode: ['discount code', 'discount codes'],
  door: ['door', 'doors'],
  event: ['event', 'events'],
  invoiceLine: ['invoice line', 'invoice lines'],
  member: ['member', 'members'],
  order: ['order', 'orders'],
  pass: ['pass', 'passes'],
  question: ['question', 'questions'],
  rating: ['rating', 'ratings'],
  scan: ['scan', 'scans'],
  session: ['session', 'sessions'],
  submission: ['submission', 'submissions'],
  ticket: ['ticket', 'tickets'],
  ticketType: ['ticket type', 'ticket types'],
} as const satisfies Record<string, readonly [string, string]>;

export type DependentKind = keyof typeof dependentWords;

export type Dependent = { resource: DependentKind; count: number; ids?: string[] };

const namedIds = 20;

/** A dependent kind from the ids found (count all, name the first 20). */
export function dependentsOf(resource: DependentKind, ids: string[]): Dependent {
  return { resource, count: ids.length, ids: ids.slice(0, namedIds) };
}

/** "1 invoice line", "3 discount codes". */
export function countInWords(resource: DependentKind, count: number): string {
  const [one, several] = dependentWords[resource];
  return `${count} ${count === 1 ? one : several}`;
}

/**
 * Throws 409 inUse when any dependent kind has a count; `advice` says what to do first (parts when it
 * mentions another operation: mentions.ts).
 */
export function refuseWhileUsed(what: string, dependents: Dependent[], advice: string | DetailPart[]): void {
  const present = dependents.filter((d) => d.count > 0);
  if (present.length === 0) return;
  const named = present.map((d) => countInWords(d.resource, d.count)).join(', ');
  throw problem('inUse', [`${what} is used by ${named}; `, ...[advice].flat()], { dependents: present });
}

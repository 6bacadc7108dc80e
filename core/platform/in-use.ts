// The one refusal for a removal while other records depend on the thing: 409 inUse, naming each kind
// of dependent with how many and the first ids, so the caller can move or remove them first.
import { problem } from './problems';

export type Dependent = { resource: string; count: number; ids?: string[] };

const namedIds = 20;

/** A dependent kind from the ids found (count all, name the first 20). */
export function dependentsOf(resource: string, ids: string[]): Dependent {
  return { resource, count: ids.length, ids: ids.slice(0, namedIds) };
}

/** Throws 409 inUse when any dependent kind has a count; `advice` says what to do first. */
export function refuseWhileUsed(what: string, dependents: Dependent[], advice: string): void {
  const present = dependents.filter((d) => d.count > 0);
  if (present.length === 0) return;
  const named = present.map((d) => `${d.count} ${d.resource}${d.count === 1 ? '' : 's'}`).join(', ');
  throw problem('inUse', `${what} is used by ${named}; ${advice}`, { dependents: present });
}

// The personal-data rule, in one place: personal fields are null without people:read or once the
// person erased their data, and the resource says which of the three cases applies.
import type { Actor } from './actor';
import { hasScope } from './scopes';

export type PersonalData = 'included' | 'withheld' | 'erased';

export function canReadPeople(actor: Actor): boolean {
  return hasScope(actor.scopes, 'people:read');
}

/** Who the resource is rendered for: a caller, or the outbox (whose dispatcher redacts per subscriber). */
export type Reader = Actor | 'unredacted';

export function personalDataFor(reader: Reader, erased: boolean): PersonalData {
  if (erased) return 'erased';
  return reader === 'unredacted' || canReadPeople(reader) ? 'included' : 'withheld';
}

/**
 * Applies the rule to one resource: the named personal fields become null unless the state is
 * included, and `erased` / `personalData` are set.
 */
export function applyPersonalData<T extends object, K extends keyof T>(
  reader: Reader,
  resource: T,
  personalFields: readonly K[],
  erased: boolean,
): Omit<T, K> & { [P in K]: T[P] | null } & { erased: boolean; personalData: PersonalData } {
  const personalData = personalDataFor(reader, erased);
  const copy = { ...resource } as Record<string, unknown>;
  if (personalData !== 'included') for (const field of personalFields) copy[field as string] = null;
  copy.erased = erased;
  copy.personalData = personalData;
  return copy as Omit<T, K> & { [P in K]: T[P] | null } & { erased: boolean; personalData: PersonalData };
}

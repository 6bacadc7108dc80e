// The venue rule, one for the API and the import: an online event has no venue, an event in person
// needs one.

/** What the input says of the venue: one given, none (null, or absent when making the event), or nothing (it stays). */
export type VenueSent = 'given' | 'none' | 'unsent';

export const venueMessages = {
  online: 'An online event has no venue.',
  inPerson: 'An in-person event needs a venue.',
} as const;

/**
 * The message for a venue that breaks the rule, or null. The import takes events in person without
 * a venue (an earlier edition's may never have been recorded), so it asks for the online half only.
 */
export function venueProblem(
  online: boolean,
  venue: VenueSent,
  inPerson: 'needsOne' | 'mayLackOne' = 'needsOne',
): string | null {
  if (online && venue === 'given') return venueMessages.online;
  if (!online && venue === 'none' && inPerson === 'needsOne') return venueMessages.inPerson;
  return null;
}

/** What a value as sent says of the venue: undefined is `absent` (none when making, unsent when changing). */
export function venueSent(value: unknown, absent: 'none' | 'unsent'): VenueSent {
  if (value === undefined) return absent;
  return value === null ? 'none' : 'given';
}

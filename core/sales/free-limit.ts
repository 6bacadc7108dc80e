// The free limit: an event with at most this many registrations (valid tickets, crew left out)
// needs no licence. Above it, reopening an earlier edition needs its licence (historyNeedsLicence),
// and a first paid ticket type would end a free community event's status (endsCommunity).

import type { Ctx } from '../platform/context';
import { countRegistered } from './registered';

export const freeRegistrationLimit = 50;

/** The registrations of the event when they are above the free limit, else null. */
export async function registrationsAboveFreeLimit(ctx: Ctx, eventId: string): Promise<number | null> {
  const { registered } = await countRegistered(ctx, eventId);
  return registered > freeRegistrationLimit ? registered : null;
}

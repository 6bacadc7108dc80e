// A registration's places: taken per ticket type with its capacity check in one conditional update
// (core/sales/places.ts), refused soldOut; then per add-on, those the types include and those the
// people chose together, refused registrationRefused (addOnSoldOut). Each kind in the order of its
// ids, ticket types first, so concurrent registrations take their rows' locks in one order. Taken
// last, after the order, its tickets and their messages are written: on PostgreSQL each registration
// of a type waits on the type's row from its update to its commit, so the update comes as late as
// it can (registrations of one type in flight at once: 4,283 → 4,997 attendees a second in calls of
// 50). All or nothing: a refusal undoes the rest with the transaction. The registration's read holds
// its types and add-ons (FOR KEY SHARE), so none is removed meanwhile; should one be gone all the
// same, it answers as one it never had (unknownTicket, invalidRequest).
import type { TicketTypeRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { FieldErrors } from '../platform/field-errors';
import { problem } from '../platform/problems';
import { takePlaces } from '../sales/places';
import { countByType, countChosenAddOns, type NewAttendee } from './registration-input';

const byId = <T>([a]: [string, T], [b]: [string, T]) => (a < b ? -1 : 1);

export async function takeRegistrationPlaces(
  ctx: Ctx,
  people: NewAttendee[],
  types: Map<string, TicketTypeRow>,
): Promise<void> {
  const addOns = countChosenAddOns(people);
  /** The ticket type including an add-on, for the refusal to name (as it did before add-ons were chosen). */
  const includedBy = new Map<string, string>();
  for (const [ticketTypeId, n] of [...countByType(people)].sort(byId)) {
    const took = await takePlaces(ctx, 'ticket_types', ticketTypeId, n);
    // Removed since the registration read it: answered as checkRegistration answers one it never had.
    if (took === 'gone')
      throw problem('unknownTicket', `${ticketTypeId} is not a ticket type of this event.`, { ticketTypeId });
    if (took === 'full') {
      const name = types.get(ticketTypeId)?.name;
      throw problem('soldOut', `Not enough places left for ${n} × ${name}.`, { ticketTypeId });
    }
    for (const addOnId of JSON.parse(types.get(ticketTypeId)!.included_add_on_ids) as string[]) {
      addOns.set(addOnId, (addOns.get(addOnId) ?? 0) + n);
      if (!includedBy.has(addOnId)) includedBy.set(addOnId, ticketTypeId);
    }
  }
  for (const [addOnId, n] of [...addOns].sort(byId)) {
    const took = await takePlaces(ctx, 'add_ons', addOnId, n);
    if (took === 'gone') refuseAddOnGone(people, addOnId);
    if (took === 'full') {
      const ticketTypeId = includedBy.get(addOnId);
      throw problem(
        'registrationRefused',
        ticketTypeId
          ? 'An add-on included with this ticket type is sold out.'
          : `Not enough places left for ${n} of an add-on chosen.`,
        { reason: 'addOnSoldOut', addOnId, ...(ticketTypeId ? { ticketTypeId } : {}) },
      );
    }
  }
}

/**
 * An add-on removed since the registration read it, answered as checkChosenAddOns answers one that
 * was never there (400 invalidRequest), at each person who chose it. One a ticket type includes
 * cannot be removed, so someone chose it.
 */
function refuseAddOnGone(people: NewAttendee[], addOnId: string): never {
  const errors = new FieldErrors();
  people.forEach((person, i) => {
    (person.addOns ?? []).forEach((chosen, n) => {
      if (chosen.addOnId === addOnId)
        errors.add(`attendees.${i}.addOns.${n}.addOnId`, 'Not an add-on of this event.');
    });
  });
  if (errors.list.length === 0) errors.add('attendees', `${addOnId} is not an add-on of this event.`);
  errors.throwIfAny();
  throw new Error('unreachable: an error was added');
}

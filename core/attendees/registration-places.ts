// A registration's places: taken per ticket type with its capacity check in one conditional update
// (core/sales/places.ts), with the add-ons each type includes; refused soldOut or, for an add-on,
// registrationRefused; then the add-ons people chose. All or nothing: a refusal undoes what was taken with the transaction.
import type { TicketTypeRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { problem } from '../platform/problems';
import { takePlaces } from '../sales/places';
import { countByType, countChosenAddOns, type NewAttendee } from './registration-input';

export async function takeRegistrationPlaces(
  ctx: Ctx,
  people: NewAttendee[],
  types: Map<string, TicketTypeRow>,
): Promise<void> {
  // In the order of their ids, so concurrent registrations take their rows' locks in one order.
  for (const [ticketTypeId, n] of [...countByType(people)].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (!(await takePlaces(ctx, 'ticket_types', ticketTypeId, n))) {
      const name = types.get(ticketTypeId)?.name;
      throw problem('soldOut', `Not enough places left for ${n} × ${name}.`, { ticketTypeId });
    }
    for (const addOnId of JSON.parse(types.get(ticketTypeId)!.included_add_on_ids) as string[]) {
      if (!(await takePlaces(ctx, 'add_ons', addOnId, n))) {
        throw problem('registrationRefused', 'An add-on included with this ticket type is sold out.', {
          reason: 'addOnSoldOut',
          ticketTypeId,
        });
      }
    }
  }
  // The add-ons people chose, in the order of their ids too.
  for (const [addOnId, n] of [...countChosenAddOns(people)].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (!(await takePlaces(ctx, 'add_ons', addOnId, n))) {
      throw problem('registrationRefused', `Not enough places left for ${n} of an add-on chosen.`, {
        reason: 'addOnSoldOut',
        addOnId,
      });
    }
  }
}

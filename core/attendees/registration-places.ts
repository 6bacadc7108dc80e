// A registration's places: taken per ticket type with its capacity check in one conditional update
// (core/sales/places.ts), refused soldOut; then per add-on, those the types include and those the
// people chose together, refused registrationRefused (addOnSoldOut). Each kind in the order of its
// ids, ticket types first, so concurrent registrations take their rows' locks in one order. Taken
// last, after the order, its tickets and their messages are written: on PostgreSQL each registration
// of a type waits on the type's row from its update to its commit, so the update comes as late as
// it can: after the order, its tickets, its messages, the answer's read and the activity entry, as
// the call's last writes (pipeline/last-writes.ts; docs/benchmarks.md, stop 43 and "On-sale rush"). All or nothing: a refusal undoes the rest with the
// transaction; places the registration's read already found gone are refused before anything is
// written (refuseFullAtRead). The read holds its types and add-ons (FOR KEY SHARE), so none is
// removed meanwhile; should one be gone all the same, it answers as one it never had
// (unknownTicket, invalidRequest).
import type { DiscountCodeRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { FieldErrors } from '../platform/field-errors';
import { writeLast } from '../platform/pipeline/last-writes';
import { problem } from '../platform/problems';
import { takeCodeUses, takePlaces } from '../sales';
import type { CheckedRegistration, NewAttendee } from './registration-input';
import type { RegistrationType, WantedPlaces } from './wanted-places';

function ticketTypeFull(types: Map<string, RegistrationType>, ticketTypeId: string, n: number) {
  return problem('soldOut', `Not enough places left for ${n} × ${types.get(ticketTypeId)?.name}.`, {
    ticketTypeId,
  });
}

function addOnFull(wanted: WantedPlaces, addOnId: string, n: number) {
  const ticketTypeId = wanted.includedBy.get(addOnId);
  return problem(
    'registrationRefused',
    ticketTypeId
      ? 'An add-on included with this ticket type is sold out.'
      : `Not enough places left for ${n} of an add-on chosen.`,
    { reason: 'addOnSoldOut', addOnId, ...(ticketTypeId ? { ticketTypeId } : {}) },
  );
}

const fullAtRead = (row: { capacity: number | null; taken: number } | undefined, n: number) =>
  row !== undefined && row.capacity !== null && row.taken + n > row.capacity;

/**
 * Refused at once, before anything is written, when the registration's read found the places
 * gone: a sold-out event's registrations leave nothing to undo (on PostgreSQL, no dead rows and
 * index entries). The answer is the one the places' update would give; when the read found room,
 * that update, last, decides.
 */
export function refuseFullAtRead({ types, addOns, wanted }: CheckedRegistration): void {
  for (const [ticketTypeId, n] of wanted.ticketTypes)
    if (fullAtRead(types.get(ticketTypeId), n)) throw ticketTypeFull(types, ticketTypeId, n);
  for (const [addOnId, n] of wanted.addOns)
    if (fullAtRead(addOns.get(addOnId), n)) throw addOnFull(wanted, addOnId, n);
}

/**
 * The registration's discount code uses (`uses` of `code`), then its places: every order of the code,
 * then of the type, queues on its row from there to its commit, so they are the call's last writes.
 */
export function takeRegistrationPlacesLast(
  ctx: Ctx,
  registration: CheckedRegistration,
  code?: { row: DiscountCodeRow; uses: number },
): Promise<void> {
  return writeLast(ctx, async () => {
    if (code) await takeCodeUses(ctx, code.row, code.uses);
    await takeRegistrationPlaces(ctx, registration);
  });
}

async function takeRegistrationPlaces(
  ctx: Ctx,
  { people, types, wanted }: CheckedRegistration,
): Promise<void> {
  for (const [ticketTypeId, n] of wanted.ticketTypes) {
    const took = await takePlaces(ctx, 'ticket_types', ticketTypeId, n);
    // Removed since the registration read it: answered as checkRegistration answers one it never had.
    if (took === 'gone')
      throw problem('unknownTicket', `${ticketTypeId} is not a ticket type of this event.`, { ticketTypeId });
    if (took === 'full') throw ticketTypeFull(types, ticketTypeId, n);
  }
  for (const [addOnId, n] of wanted.addOns) {
    const took = await takePlaces(ctx, 'add_ons', addOnId, n);
    if (took === 'gone') refuseAddOnGone(people, addOnId);
    if (took === 'full') throw addOnFull(wanted, addOnId, n);
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

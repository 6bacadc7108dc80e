// The places a registration wants, counted once when it is checked (registration-input.ts) and read
// by its refusals and by the places' updates (registration-places.ts): per ticket type, then per
// add-on (those the types include and those the people chose), each in the order of its ids.
import type { TicketTypeRow } from '../../db/schema';

/** A ticket type as a registration reads it: the add-ons it includes parsed once, where its row is read. */
export type RegistrationType = TicketTypeRow & { includedAddOnIds: readonly string[] };

/** The type read with the ids of the add-ons it includes (its row keeps them as JSON text). */
export function registrationType(row: TicketTypeRow): RegistrationType {
  return { ...row, includedAddOnIds: JSON.parse(row.included_add_on_ids) as string[] };
}

export interface WantedPlaces {
  /** How many of the people hold each ticket type, in the order the people name them. */
  byType: Map<string, number>;
  /** The same in id order. */
  ticketTypes: [string, number][];
  /** How many of each add-on, included and chosen together, in id order. */
  addOns: [string, number][];
  /** The ticket type including an add-on, for the refusal to name (as it did before add-ons were chosen). */
  includedBy: Map<string, string>;
}

/** What the counts read of a person to register (registration-input.ts NewAttendee has it). */
interface WantingPerson {
  ticketTypeId?: string;
  addOns?: { addOnId: string; quantity?: number }[];
}

const byId = <T>([a]: [string, T], [b]: [string, T]) => (a < b ? -1 : 1);

/** Every person has a ticket type of the event (checked before). */
export function wantedPlaces(people: WantingPerson[], types: Map<string, RegistrationType>): WantedPlaces {
  const addOns = countChosenAddOns(people);
  const includedBy = new Map<string, string>();
  const byType = countByType(people);
  const ticketTypes = [...byType].sort(byId);
  for (const [ticketTypeId, n] of ticketTypes) {
    for (const addOnId of types.get(ticketTypeId)!.includedAddOnIds) {
      addOns.set(addOnId, (addOns.get(addOnId) ?? 0) + n);
      if (!includedBy.has(addOnId)) includedBy.set(addOnId, ticketTypeId);
    }
  }
  return { byType, ticketTypes, addOns: [...addOns].sort(byId), includedBy };
}

/** How many of the people hold each ticket type (every person has one once checked). */
function countByType(people: WantingPerson[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const person of people) counts.set(person.ticketTypeId!, (counts.get(person.ticketTypeId!) ?? 0) + 1);
  return counts;
}

/** How many of each chosen add-on the people take (besides those their ticket types include). */
function countChosenAddOns(people: WantingPerson[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const person of people)
    for (const { addOnId, quantity } of person.addOns ?? [])
      counts.set(addOnId, (counts.get(addOnId) ?? 0) + (quantity ?? 1));
  return counts;
}

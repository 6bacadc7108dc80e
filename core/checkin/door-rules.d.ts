// Types of door-rules.js (plain JavaScript: the door scanner page's script bundles that file).

/** What a door's rules read of the door. */
export interface DoorRules {
  /** Ticket types it admits; empty: every ticket type. */
  ticketTypeIds: readonly string[];
  /** Add-ons of which a ticket needs one; empty: none needed. */
  addOnIds: readonly string[];
  /** Whether someone who went out may come in again. */
  reentry: boolean;
}

/** What a door's rules read of a ticket (a scan-list row has these fields). */
export interface TicketFacts {
  status: 'active' | 'cancelled';
  /** Not cancelled, and its order paid or free. */
  valid: boolean;
  ticketTypeId: string;
  /** The add-ons it holds (those the door needs are enough). */
  addOnIds: readonly string[];
}

export type DoorRefusal = 'cancelled' | 'unpaid' | 'notOnList' | 'noAddOn';

/** Where a ticket's holder stands at a door: never in, inside now, or in before and gone out. */
export type Presence = 'never' | 'inside' | 'out';

export type Entry = 'again' | 'noReentry' | 'backIn' | 'firstIn';

export declare function refusalAtDoor(
  door: Pick<DoorRules, 'ticketTypeIds' | 'addOnIds'>,
  ticket: TicketFacts,
): DoorRefusal | null;

export declare function entryAtDoor(door: Pick<DoorRules, 'reentry'>, presence: Presence): Entry;

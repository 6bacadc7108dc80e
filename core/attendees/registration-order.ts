// A registration's rows: the order, its attendees (one statement) and their add-ons (included and chosen),
// with one block of change positions; answered as written, with what the attendee view joins in.
// The order's insert takes the block of change positions and a free reference in one statement.
import { insertRows } from '../../db/prepared';
import type { AttendeeRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { newId } from '../platform/ids';
import { newTicketCode } from '../platform/ticket-codes';
import { insertOrder, type NewOrder } from '../sales';
import type { AttendeeJoinedRow } from './attendee-view';
import { takeUpHeldPlace } from './held-place';
import type { CheckedRegistration, NewAttendee } from './registration-input';
import type { RegistrationPrices } from './registration-prices';
import type { RegistrationType } from './wanted-places';

/** The buyer, when it is not the first attendee. */
export interface Buyer {
  language?: string;
  buyerName?: string;
  buyerEmail?: string;
  buyerCompany?: string;
}

/** An order with a price: its status, its ticket prices and totals, and what its payment says. */
export interface Sale {
  /**
   * transfer: awaiting a bank transfer (or marked paid at once by the caller); pending: held for a
   * card checkout; free: nothing to pay; requested: waiting for the organiser's approval
   * (needs-approval.ts), nothing valid yet.
   */
  status: 'transfer' | 'pending' | 'free' | 'requested';
  prices: RegistrationPrices;
  /** The discount code the prices took off. */
  discountCodeId: string | null;
  /** complimentary, for an order given free on purpose; else null until paid. */
  paymentMethod: string | null;
  /** A complimentary order's reason. */
  paymentNote: string | null;
}

export async function writeRegistration(
  ctx: Ctx,
  { event, languages, types, people }: CheckedRegistration,
  input: Buyer,
  sale?: Sale,
): Promise<{ orderId: string; reference: string; joined: AttendeeJoinedRow[] }> {
  const now = ctx.clock.now().toISOString();
  const first = people[0]!;
  const orderId = newId();
  const order: NewOrder = {
    id: orderId,
    workspace_id: ctx.actor.workspaceId,
    event_id: event.id,
    status: sale?.status ?? 'free',
    buyer_name: input.buyerName ?? `${first.firstName} ${first.lastName}`,
    buyer_email: (input.buyerEmail ?? first.email!).toLowerCase(),
    buyer_company: input.buyerCompany ?? (input.buyerName === undefined ? (first.company ?? null) : null),
    language: input.language ?? languages[0]!,
    total_minor: sale?.prices.totalMinor ?? 0,
    vat_minor: sale?.prices.vatMinor ?? 0,
    discount_minor: sale?.prices.discountMinor ?? 0,
    currency: event.currency,
    payment_provider: null,
    payment_method: sale?.paymentMethod ?? null,
    payment_note: sale?.paymentNote ?? null,
    paid_utc: null,
    // The public form's orders are the public's own registrations; the API's are the workspace's.
    source: ctx.actor.publicSignUp ? 'registration' : 'workspace',
    discount_code_id: sale?.discountCodeId ?? null,
    erased: 0,
    created_utc: now,
    updated_utc: now,
  };
  // One block of change positions: the order's, then each attendee's in the order sent.
  const { reference, firstSeq } = await insertOrder(ctx.db, order, people.length + 1);
  await takeUpHeldPlace(ctx, orderId);

  const rows = people.map((person, i) => ({
    ...attendeeRowOf(ctx, person, input.language ?? languages[0]!, now),
    // A free registration's tickets are sold for nothing.
    price_minor: sale?.prices.ticketPrices[i] ?? 0,
    event_id: event.id,
    order_id: orderId,
    change_seq: firstSeq + 1 + i,
  }));
  // All of them in one statement (at most 50 rows of 19 values).
  await insertRows(ctx.db, 'attendees', rows);
  const addOns = addOnRowsOf(rows, people, types);
  if (addOns.length > 0) await ctx.db.insertInto('attendee_add_ons').values(addOns).execute();

  // The rows as written, with the order and ticket-type facts their view joins in.
  const joined: AttendeeJoinedRow[] = rows.map((row) => ({
    ...row,
    order_reference: reference,
    order_status: sale?.status ?? 'free',
    ticket_type_name: types.get(row.ticket_type_id)!.name,
  }));
  return { orderId, reference, joined };
}

/** A new ticket's row for one person, but for its event, order and change position. */
function attendeeRowOf(
  ctx: Ctx,
  person: NewAttendee,
  language: string,
  now: string,
): Omit<AttendeeRow, 'event_id' | 'order_id' | 'change_seq' | 'price_minor'> {
  return {
    id: newId(),
    workspace_id: ctx.actor.workspaceId,
    ticket_type_id: person.ticketTypeId!,
    first_name: person.firstName!.trim(),
    last_name: person.lastName!.trim(),
    email: person.email!.trim().toLowerCase(),
    company: person.company?.trim() || null,
    job_title: person.jobTitle?.trim() || null,
    language,
    answers: person.answers && Object.keys(person.answers).length > 0 ? JSON.stringify(person.answers) : null,
    status: 'active',
    checked_in_utc: null,
    cancelled_utc: null,
    erased: 0,
    ticket_code: newTicketCode(),
    created_utc: now,
    updated_utc: now,
  };
}

/** The add-ons each new ticket holds: those its type includes, then those its person chose. */
function addOnRowsOf(rows: AttendeeRow[], people: NewAttendee[], types: Map<string, RegistrationType>) {
  return rows.flatMap((row, i) => [
    ...types.get(row.ticket_type_id)!.includedAddOnIds.map((addOnId) => ({
      attendee_id: row.id,
      add_on_id: addOnId,
      quantity: 1,
    })),
    ...(people[i]!.addOns ?? []).map(({ addOnId, quantity }) => ({
      attendee_id: row.id,
      add_on_id: addOnId,
      quantity: quantity ?? 1,
    })),
  ]);
}

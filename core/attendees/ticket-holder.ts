// Naming a ticket's holder by what a scanner read: check-in by code takes a ticket code alone;
// offline scans, lead capture and feedback take attendeeId or ticketCode, exactly one of the two.
// One rule and one look-up for all of them, here.
import * as v from 'valibot';
import { prepare } from '../../db/prepared';
import type { Ctx } from '../platform/context';
import { FieldErrors } from '../platform/field-errors';
import { problem } from '../platform/problems';
import { oneLine, uuid } from '../platform/schemas';
import { ticketCodeIn } from '../platform/ticket-codes';

const scanned =
  'what a scanner read from the ticket: its code (26 letters and digits 2-7; case, spaces and dashes ignored) or its address ending in /t/{code}, as its QR code holds it';

export const scannedTicketSchema = v.pipe(
  v.string(),
  oneLine,
  v.maxLength(500),
  v.description(`${scanned[0]!.toUpperCase()}${scanned.slice(1)}.`),
);

const notACode = "This is not a ticket's code (26 letters and digits 2-7) or a ticket's address.";

/** The code in a scan, or a field error naming where it came from. */
export function codeInScan(scanned: string, field: string): string {
  const code = ticketCodeIn(scanned);
  if (code === null) new FieldErrors().add(field, notACode).throwIfAny();
  return code as string;
}

/** attendeeId and ticketCode, both optional in the schema: checkTicketHolder asks for exactly one. */
export function ticketHolderFields(who: string) {
  return {
    attendeeId: v.optional(uuid(`${who}, by attendee id. Give this or ticketCode, not both.`)),
    ticketCode: v.optional(
      v.pipe(
        v.string(),
        oneLine,
        v.maxLength(500),
        v.description(`${who}, by ${scanned}. Give this or attendeeId, not both.`),
      ),
    ),
  };
}

export interface TicketHolderInput {
  attendeeId?: string;
  ticketCode?: string;
}

/**
 * The rule of ticketHolderFields on the input as sent (under `at`, such as 'scans.3.'): exactly one
 * of attendeeId or ticketCode; and, unless `readCode` is false, a ticketCode holding a code.
 */
export function checkTicketHolder(
  input: Record<string, unknown>,
  errors: FieldErrors,
  at = '',
  readCode = true,
): void {
  const byId = input.attendeeId !== undefined;
  const byCode = input.ticketCode !== undefined;
  if (byId === byCode) {
    const message = byId ? 'Give attendeeId or ticketCode, not both.' : 'Give attendeeId or ticketCode.';
    errors.add(`${at}attendeeId`, message).add(`${at}ticketCode`, message);
  } else if (readCode && typeof input.ticketCode === 'string' && ticketCodeIn(input.ticketCode) === null)
    errors.add(`${at}ticketCode`, notACode);
}

const attendeeIdByCode = prepare<{ ticketCode: string; eventId: string }, { id: string }>((db, p) =>
  db
    .selectFrom('attendees')
    .select('id')
    .where('ticket_code', '=', p.ticketCode)
    .where('event_id', '=', p.eventId),
);

/**
 * The attendee id the input names: attendeeId as given (the caller checks that attendee), or the
 * id of this event's ticket with the code; attendeeNotFound when no ticket of the event has it.
 */
export async function ticketHolderId(ctx: Ctx, eventId: string, input: TicketHolderInput): Promise<string> {
  if (input.ticketCode === undefined) return input.attendeeId!;
  const ticketCode = codeInScan(input.ticketCode, 'ticketCode');
  const row = await attendeeIdByCode.first(ctx.db, { ticketCode, eventId });
  if (!row) {
    ctx.ticketMisses?.add(ticketCode);
    throw problem('attendeeNotFound', 'No ticket of this event has this code.');
  }
  return row.id;
}

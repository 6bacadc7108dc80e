// An event's sign-up settings (table event_sign_up, issue 27): whether its public page takes
// registrations, what a buyer paying by bank transfer is told, and whether attendees are sent
// e-mail. An event without a row has the defaults; the row is written on the first change.
import * as v from 'valibot';
import type { Db } from '../../db/connect';
import type { EventRow, EventSignUpRow } from '../../db/schema';

export const signUpSchema = v.object({
  eventId: v.pipe(v.string(), v.uuid(), v.description('The event.')),
  publicForm: v.pipe(
    v.boolean(),
    v.description("Whether the event's public page /e/{slug} takes registrations."),
  ),
  paymentInstructions: v.pipe(
    v.nullable(v.string()),
    v.description('What a buyer paying by bank transfer is told (account, what to quote); null: none.'),
  ),
  sendEmails: v.pipe(v.boolean(), v.description("Whether the event's attendees are sent e-mail.")),
  waitingListOfferHours: v.pipe(
    v.number(),
    v.integer(),
    v.description(
      'Tessera extension: how long a place offered to the next on a waiting list is held for them, in hours (1 to 720; default 48).',
    ),
  ),
});

export type SignUpView = v.InferOutput<typeof signUpSchema>;

export async function loadSignUp(db: Db, event: Pick<EventRow, 'id'>): Promise<SignUpView> {
  const row = await db
    .selectFrom('event_sign_up')
    .selectAll()
    .where('event_id', '=', event.id)
    .executeTakeFirst();
  return signUpViewOf(event, row);
}

/** The settings an event's row says, the defaults without one. */
export function signUpViewOf(event: Pick<EventRow, 'id'>, row: EventSignUpRow | undefined): SignUpView {
  return {
    eventId: event.id,
    publicForm: row ? row.public_form === 1 : true,
    paymentInstructions: row?.payment_instructions ?? null,
    sendEmails: row ? row.send_emails === 1 : true,
    waitingListOfferHours: row?.waiting_list_offer_hours ?? 48,
  };
}

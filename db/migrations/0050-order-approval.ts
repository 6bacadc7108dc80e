// Orders that wait for the organiser's approval (issue 52, item 3): a ticket type requiring approval
// makes its order `requested` (places held, no ticket valid) until the organiser approves it or
// declines it. Two webhook event types beyond the spec's 22 (order.approved, order.declined) join the
// outbox's and the automation subscriptions' fixed lists; two e-mails (the request received, the
// request declined) join the mail queue's; a declined order keeps the reason the organiser gave
// (their own words to the buyer, not personal data).
//
// The value lists are written out here, not imported: a migration must say what it did the day it ran.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';
import { rebuildTable, withForeignKeysOff } from '../rebuild-table';

const eventTypes = [
  'attendee.registered',
  'attendee.updated',
  'attendee.cancelled',
  'attendee.erased',
  'order.paid',
  'checkin.created',
  'feedback.given',
  'lead.captured',
  'certificate.issued',
  'content.published',
  'stay.requested',
  'stay.assigned',
  'stay.changed',
  'stay.cancelled',
  'member.joined',
  'member.left',
  'travel.changed',
  'claim.submitted',
  'claim.approved',
  'claim.paid',
  'shift.signed_up',
  'shift.dropped',
  'order.approved',
  'order.declined',
];

const causeKinds = [
  'ticketIssued',
  'ticketCancelled',
  'transferInstructions',
  'ticketResent',
  'invoiceIssued',
  'creditNoteIssued',
  'documentSent',
  'requestReceived',
  'requestDeclined',
];

const oneOf = (column: string, values: string[]) =>
  `"${column}" in (${values.map((v) => `'${v}'`).join(', ')})`;

export async function up(db: Kysely<any>): Promise<void> {
  await withForeignKeysOff(
    db,
    async (trx) => {
      // SQLite numbers the outbox's messages on from the highest it ever gave, not the highest left.
      const given = isPostgres(trx)
        ? undefined
        : (await sql<{ seq: number }>`select seq from sqlite_sequence where name = 'outbox'`.execute(trx))
            .rows[0]?.seq;
      await rebuildTable(trx, 'outbox', {
        dropChecks: ['outbox_type'],
        checks: { type: oneOf('type', eventTypes) },
      });
      if (given !== undefined)
        await sql`update sqlite_sequence set seq = max(seq, ${given}) where name = 'outbox'`.execute(trx);
      await rebuildTable(trx, 'hooks', {
        dropColumnChecks: ['event_type'],
        checks: { event_type: oneOf('event_type', eventTypes) },
      });
      await rebuildTable(trx, 'mail_messages', {
        dropChecks: ['mail_messages_cause_kind'],
        checks: { cause_kind: oneOf('cause_kind', causeKinds) },
      });
    },
    ['outbox', 'hooks', 'mail_messages'],
  );
  await db.schema.alterTable('orders').addColumn('decline_reason', 'text').execute();
}

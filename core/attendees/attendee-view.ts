// The public Attendee resource: one query shape (attendee + order + ticket type) and one view,
// with the personal-data rule applied to names, email, company, job title and answers.
import type { AliasedSelectQueryBuilder, Selectable } from 'kysely';
import * as v from 'valibot';
import { addressCandidates } from '../../db/attendee-search';
import { attendeeColumns } from '../../db/columns';
import type { Db } from '../../db/connect';
import type { AttendeesTable } from '../../db/schema';
import { attendeeStatuses } from '../../db/values';
import { applyPersonalData, declarePersonal, type Reader } from '../platform/pipeline/personal-data';
import { dateTime, personalDataSchema, text, uuid } from '../platform/schemas';
import { ticketUrl } from '../platform/ticket-codes';
import { isValidTicket, orderStatuses } from '../sales';

/** An attendee's personal fields: withheld without people:read, erased with the person. */
export const attendeePersonal = declarePersonal({
  resource: 'attendee',
  idField: 'attendeeId',
  table: 'attendees',
  countedAs: 'ticket',
  fields: {
    firstName: 'first_name',
    lastName: 'last_name',
    email: 'email',
    company: 'company',
    jobTitle: 'job_title',
    answers: 'answers',
  },
  credentials: ['ticketCode', 'ticketUrl'],
  emailColumn: 'email',
  emailCandidates: (db, workspaceId, email) => addressCandidates(db, workspaceId, null, email),
});

export const attendeeSchema = v.object({
  attendeeId: uuid('The attendee id.'),
  eventId: uuid('The event id.'),
  orderId: uuid('The order holding the ticket.'),
  orderReference: text('Six-character order reference.'),
  ticketTypeId: uuid('The ticket type.'),
  ticketTypeName: text('Name of the ticket type.'),
  firstName: v.nullable(text('Personal data.')),
  lastName: v.nullable(text('Personal data.')),
  email: v.nullable(v.pipe(v.string(), v.email(), v.description('Where the ticket goes. Personal data.'))),
  company: v.nullable(text('Personal data.')),
  jobTitle: v.nullable(text('Personal data.')),
  language: text('Language registered in.'),
  answers: v.nullable(
    v.pipe(
      v.record(v.string(), v.unknown()),
      v.description('Answers to registration questions, keyed by question id. Personal data.'),
    ),
  ),
  ticketCode: v.nullable(
    v.pipe(
      v.string(),
      v.description(
        "Tessera extension. The ticket's code: what its QR code holds and its page /t/{code} shows; what check-in by code takes. A credential: shown only with people:read, and kept when the person's data is erased (the ticket still admits them).",
      ),
    ),
  ),
  ticketUrl: v.nullable(
    v.pipe(
      v.string(),
      v.url(),
      v.description(
        "Tessera extension. The ticket's page, absolute on the service's public address (TESSERA_PUBLIC_URL): https://{host}/t/{ticketCode}, what its QR code holds, for an integration sending its own mail. A credential like ticketCode: shown only with people:read, kept when the person's data is erased.",
      ),
    ),
  ),
  status: v.pipe(v.picklist(attendeeStatuses), v.description('active or cancelled.')),
  orderStatus: v.picklist(orderStatuses),
  valid: v.pipe(v.boolean(), v.description('True when not cancelled and the order is paid or free.')),
  checkedInUtc: v.nullable(dateTime('First check-in.')),
  createdUtc: dateTime('When the ticket was made.'),
  changedUtc: v.nullable(dateTime('Last change of attendee or order; pass the newest as updatedSince.')),
  updatedUtc: v.nullable(dateTime('Same value as changedUtc.')),
  erased: v.boolean(),
  personalData: personalDataSchema,
});

export type AttendeeView = v.InferOutput<typeof attendeeSchema>;

/** Some of the attendees' rows, whole, as a subquery named `attendees` (an event's newest, say). */
export type AttendeesRead = AliasedSelectQueryBuilder<Selectable<AttendeesTable>, 'attendees'>;

/**
 * Attendees with the order and ticket-type facts their view needs: of the whole table, or of the
 * rows `from` reads, in its order.
 */
export function attendeeQuery(db: Db, from?: AttendeesRead) {
  return (
    db
      // Kysely takes either; the subquery's rows are the table's, so its type names the table.
      .selectFrom((from ?? 'attendees') as 'attendees')
      .innerJoin('orders', 'orders.id', 'attendees.order_id')
      .innerJoin('ticket_types', 'ticket_types.id', 'attendees.ticket_type_id')
      .select(attendeeColumns.map((c) => `attendees.${c}` as const))
      .select([
        'orders.reference as order_reference',
        'orders.status as order_status',
        'ticket_types.name as ticket_type_name',
      ])
  );
}

/** change_txn left out, as in db/schema.ts's rows: rows built from what was just written have none. */
export type AttendeeJoinedRow = Omit<
  Awaited<ReturnType<ReturnType<typeof attendeeQuery>['executeTakeFirstOrThrow']>>,
  'change_txn'
>;

/** `origin`: the service's public origin, which ticketUrl is made on (ctx.request.origin). */
export function attendeeView(reader: Reader, row: AttendeeJoinedRow, origin: string): AttendeeView {
  return applyPersonalData(
    reader,
    {
      attendeeId: row.id,
      eventId: row.event_id,
      orderId: row.order_id,
      orderReference: row.order_reference,
      ticketTypeId: row.ticket_type_id,
      ticketTypeName: row.ticket_type_name,
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      company: row.company,
      jobTitle: row.job_title,
      language: row.language,
      answers: row.answers === null ? null : (JSON.parse(row.answers) as Record<string, unknown>),
      ticketCode: row.ticket_code,
      ticketUrl: row.ticket_code === null ? null : ticketUrl(origin, row.ticket_code),
      status: row.status,
      orderStatus: row.order_status,
      valid: isValidTicket(row.status, row.order_status),
      checkedInUtc: row.checked_in_utc,
      createdUtc: row.created_utc,
      changedUtc: row.updated_utc,
      updatedUtc: row.updated_utc,
    },
    attendeePersonal,
    row.erased === 1,
  );
}

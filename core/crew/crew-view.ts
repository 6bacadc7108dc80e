// The public CrewMember and Shift resources (volunteers, roles, the shifts they work). Names, email
// and phone are personal data: null without people:read and once the person erased their data. A
// shift's assigned, open and crewMemberIds, and a crew member's shiftIds, come from the assignment
// rows (assignments.ts), never from stored totals. The crew lists use these views; shift messages
// carry them.
import * as v from 'valibot';
import type { EventRow } from '../../db/schema';
import { shiftPlaceKinds } from '../../db/values';
import { applyPersonalData, declarePersonal, type Reader } from '../platform/pipeline/personal-data';
import { dateTime, int32, localTime, personalDataSchema, text, uuid } from '../platform/schemas';
import { toLocal } from '../platform/time';
import type { CrewMemberJoinedRow, ShiftJoinedRow } from './crew-rows';

export { shiftPlaceKinds };

export const crewMemberPersonal = declarePersonal({
  resource: 'crew member',
  idField: 'crewMemberId',
  table: 'crew_members',
  fields: { name: 'name', email: 'email', phone: 'phone' },
  emailColumn: 'email',
  // Their crew ticket is theirs: erasing the ticket's holder erases the crew member too.
  attendeeColumn: 'attendee_id',
});

export const crewMemberSchema = v.object({
  crewMemberId: uuid('The crew member id.'),
  eventId: uuid('The event id.'),
  name: v.nullable(text('Personal data: null without people:read.')),
  email: v.nullable(v.pipe(v.string(), v.email(), v.description('Personal data: null without people:read.'))),
  phone: v.nullable(text('Personal data: null without people:read.')),
  roles: v.pipe(v.array(v.string()), v.description('door, infoDesk, room, greeter, swag and others.')),
  attendeeId: v.nullable(uuid('Their crew ticket.')),
  hasTicket: v.pipe(
    v.boolean(),
    v.description('Their crew ticket is valid (not cancelled, its order paid or free).'),
  ),
  shiftIds: v.pipe(
    v.array(v.pipe(v.string(), v.uuid())),
    v.description('The shifts they are on, in time order.'),
  ),
  invitedUtc: dateTime('When they were invited.'),
  lastSeenUtc: v.nullable(dateTime('Last seen at the event.')),
  erased: v.boolean(),
  personalData: personalDataSchema,
});

export const shiftSchema = v.object({
  shiftId: uuid('The shift id.'),
  eventId: uuid('The event id.'),
  role: text('What the shift is for (door, infoDesk, ...).'),
  place: v.object({
    kind: v.pipe(v.picklist(shiftPlaceKinds), v.description('door, room, area or other.')),
    id: v.nullable(uuid('The door or room, when it is one.')),
    name: v.nullable(text('Where.')),
  }),
  startsUtc: dateTime('Start.'),
  endsUtc: dateTime('End.'),
  startsLocal: localTime('Start'),
  endsLocal: localTime('End'),
  timeZone: text("IANA time zone of the venue (the event's); the Local fields are in it."),
  needed: int32('People needed.'),
  assigned: int32('People on the shift (may be more than needed).'),
  open: int32('Places still open: needed less assigned, never below 0.'),
  crewMemberIds: v.pipe(
    v.array(v.pipe(v.string(), v.uuid())),
    v.description('Who is on it, in the order they signed up.'),
  ),
  updatedUtc: v.nullable(dateTime('Last change (a sign-up or drop too); pass the newest as updatedSince.')),
});

export type CrewMemberView = v.InferOutput<typeof crewMemberSchema>;
export type ShiftView = v.InferOutput<typeof shiftSchema>;

export function crewMemberView(reader: Reader, row: CrewMemberJoinedRow, shiftIds: string[]): CrewMemberView {
  return applyPersonalData(
    reader,
    {
      crewMemberId: row.id,
      eventId: row.event_id,
      name: row.name,
      email: row.email,
      phone: row.phone,
      roles: JSON.parse(row.roles) as string[],
      attendeeId: row.attendee_id,
      hasTicket: Boolean(row.has_ticket),
      shiftIds,
      invitedUtc: row.invited_utc,
      lastSeenUtc: row.last_seen_utc,
    },
    crewMemberPersonal,
    row.erased === 1,
  );
}

export function shiftView(
  event: Pick<EventRow, 'time_zone'>,
  row: ShiftJoinedRow,
  crewMemberIds: string[],
): ShiftView {
  return {
    shiftId: row.id,
    eventId: row.event_id,
    role: row.role,
    place: { kind: row.place_kind, id: row.place_id, name: row.shown_place_name },
    startsUtc: row.starts_utc,
    endsUtc: row.ends_utc,
    startsLocal: toLocal(row.starts_utc, event.time_zone),
    endsLocal: toLocal(row.ends_utc, event.time_zone),
    timeZone: event.time_zone,
    needed: row.needed,
    assigned: crewMemberIds.length,
    open: Math.max(0, row.needed - crewMemberIds.length),
    crewMemberIds,
    updatedUtc: row.updated_utc,
  };
}

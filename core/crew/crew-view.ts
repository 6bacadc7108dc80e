// The public CrewMember and Shift resources (volunteers, roles, the shifts they work). Names, email
// and phone are personal data. The crew area's operations use these views; shift messages carry them.
import * as v from 'valibot';
import { declarePersonalFields } from '../platform/personal-data';
import { dateTime, int32, localTime, personalDataSchema, text, uuid } from '../platform/schemas';

export const crewMemberPersonal = declarePersonalFields({
  resource: 'crew member',
  idField: 'crewMemberId',
  fields: { name: 'name', email: 'email', phone: 'phone' },
});

export const crewMemberSchema = v.object({
  crewMemberId: uuid('The crew member id.'),
  eventId: uuid('The event id.'),
  name: v.nullable(text('Personal data.')),
  email: v.nullable(v.pipe(v.string(), v.email(), v.description('Personal data.'))),
  phone: v.nullable(text('Personal data.')),
  roles: v.pipe(v.array(v.string()), v.description('door, infoDesk, room, greeter, swag and others.')),
  attendeeId: v.nullable(uuid('Their crew ticket.')),
  hasTicket: v.boolean(),
  shiftIds: v.array(v.pipe(v.string(), v.uuid())),
  invitedUtc: dateTime('When they were invited.'),
  lastSeenUtc: v.nullable(dateTime('Last seen at the event.')),
  erased: v.boolean(),
  personalData: personalDataSchema,
});

export const shiftPlaceKinds = ['door', 'room', 'area', 'other'] as const;

export const shiftSchema = v.object({
  shiftId: uuid('The shift id.'),
  eventId: uuid('The event id.'),
  role: text('What the shift is for (door, infoDesk, ...).'),
  place: v.object({
    kind: v.picklist(shiftPlaceKinds),
    id: v.nullable(uuid('The door or room, when it is one.')),
    name: v.nullable(text('Where.')),
  }),
  startsUtc: dateTime('Start.'),
  endsUtc: dateTime('End.'),
  startsLocal: localTime('Start'),
  endsLocal: localTime('End'),
  timeZone: text('The venue time zone.'),
  needed: int32('People needed.'),
  assigned: int32('People signed up.'),
  open: int32('Places still open.'),
  crewMemberIds: v.array(v.pipe(v.string(), v.uuid())),
  updatedUtc: v.nullable(dateTime('Last change.')),
});

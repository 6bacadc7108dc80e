// The Stay resource: a hotel stay arranged for an attendee, a speaker or crew, as the API shows it
// and as its stay.* messages carry it (unredacted there: the dispatcher redacts per subscriber).
import * as v from 'valibot';
import type { StayRow } from '../../db/schema';
import { stayStatuses } from '../../db/values';
import { applyPersonalData, declarePersonal, type Reader } from '../platform/pipeline/personal-data';
import { dateTime, personalDataSchema, text, uuid } from '../platform/schemas';
import { linkedPeople, whoForViewEntries } from './who-for';

export const stayPersonal = declarePersonal({
  resource: 'stay',
  idField: 'stayId',
  table: 'stays',
  fields: { firstName: 'first_name', lastName: 'last_name', email: 'email' },
  emailColumn: 'email',
  attendeeColumn: 'attendee_id',
  linkColumns: linkedPeople,
});

/** A hotel stay arranged for an attendee, a speaker or crew. */
export const staySchema = v.object({
  stayId: uuid('The stay id.'),
  attendeeId: v.nullable(uuid('The attendee staying, when they hold a ticket.')),
  ...whoForViewEntries,
  email: v.nullable(v.pipe(v.string(), v.email(), v.description('Personal data.'))),
  status: v.picklist(stayStatuses),
  hotel: v.nullable(text('The hotel, once assigned.')),
  room: v.nullable(text('The room, once assigned.')),
  checkInDate: v.pipe(v.string(), v.isoDate(), v.description('First night.')),
  checkOutDate: v.pipe(v.string(), v.isoDate(), v.description('Day of leaving.')),
  updatedUtc: dateTime('Last change.'),
  erased: v.boolean(),
  personalData: personalDataSchema,
});

/** A stay as a caller reads it, or unredacted as its messages carry it. */
export function stayView(row: StayRow, reader: Reader = 'unredacted'): v.InferOutput<typeof staySchema> {
  return applyPersonalData(
    reader,
    {
      stayId: row.id,
      attendeeId: row.attendee_id,
      speakerId: row.speaker_id,
      crewMemberId: row.crew_member_id,
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      status: row.status,
      hotel: row.hotel,
      room: row.room,
      checkInDate: row.check_in_date,
      checkOutDate: row.check_out_date,
      updatedUtc: row.updated_utc,
    },
    stayPersonal,
    row.erased === 1,
  );
}
